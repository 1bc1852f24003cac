#!/usr/bin/env bash
# Compares two builds of the extension in one run, as ratios: for a change
# that must not cost speed (a refactoring), the lock + unlock cycle of
# RedisLock on 1 node and of RedLock on 3 and 5 nodes, and the handoff (a
# release waking the next waiter, 1 and 4 waiters), OLD against NEW.
#   bench/builds.sh OLD [NEW]
# OLD, NEW: a redislock.so file, or a git revision of this repository, built
# with scripts/build.sh in a temporary git worktree removed afterwards.
# OLD is required (e.g. the commit the change started from); NEW defaults to
# this checkout's modules/redislock.so, built first (scripts/build.sh).
# A PHP process loads one build, so each round runs, scenario by scenario,
# one php process per build (bench/builds_round.php), interleaved: old, new,
# then new, old in the next round, and so on, so that machine noise and
# drift hit both alike. Each build is copied to a temporary directory first
# (a rebuild rewrites the file in place, which would crash a process that
# has it loaded). Its own
# redis-servers on free loopback ports (tests/free_port.inc: inside
# REDISLOCK_TEST_PORT_BASE's range when set), stopped at exit.
# Writes bench/results/builds.txt: per scenario the median of the rounds for
# OLD and NEW with the interquartile range, NEW/OLD, and the spread of the
# per-round ratios (bench/builds_report.php), headed by the machine, the
# versions and the two builds. Not run by bench/run.sh.
# Env: BENCH_ROUNDS (rounds, 16: even, so each build goes first as often),
#   BENCH_CYCLES (cycles per scenario and round, 3000), BENCH_HANDOFFS
#   (handoffs per scenario and round, 60),
#   BENCH_CPU (the CPU every process of the measurement runs on, default the
#   last one; "all": not pinned).
#   The defaults take about 2 minutes after the builds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
[[ $# -ge 1 && $# -le 2 ]] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
rounds=${BENCH_ROUNDS:-16}
results="$here/results"
mkdir -p "$results"

dir=$(mktemp -d)
pids=()
worktrees=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    for w in "${worktrees[@]}"; do git -C "$root" worktree remove --force "$w" 2>/dev/null || true; done
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# build_revision SHA: builds SHA in a temporary worktree (once per SHA);
# sets built to the .so's path. Not in a $(...) subshell: cleanup must see
# the worktree in worktrees if the build fails.
build_revision() {
    local sha=$1 src="$dir/src-$1"
    built="$dir/built-$sha.so"
    [[ ! -f $built ]] || return 0
    echo "builds: building ${sha:0:12} in a temporary worktree" >&2
    git -C "$root" worktree add --detach --quiet "$src" "$sha"
    worktrees+=("$src")
    (cd "$src" && nice scripts/build.sh) >&2
    cp "$src/modules/redislock.so" "$built"
    git -C "$root" worktree remove --force "$src"
}

# take_build NAME ARG: copies ARG's .so (file or revision) to $dir/NAME.so
# and writes what it is to $dir/NAME.id.
take_build() {
    local name=$1 arg=$2 sha so id
    if [[ -f $arg ]]; then
        so=$arg
        # named without this machine's paths: this checkout's build, or the file's name
        if [[ $(realpath "$arg") == "$(realpath "$root/modules/redislock.so")" ]]; then
            id="this checkout's build, at $(git -C "$root" log -1 --format='%h %s' | cut -c1-60)$(git -C "$root" diff --quiet HEAD -- ext src config.m4 || echo ' (and changes not committed)')"
        else
            id="file $(basename "$arg")"
        fi
    elif sha=$(git -C "$root" rev-parse --verify --quiet "$arg^{commit}"); then
        build_revision "$sha"
        so=$built
        id="revision $arg, built here: $(git -C "$root" log -1 --format='%h %s' "$sha" | cut -c1-72)"
    else
        echo "builds: $arg is neither a file nor a revision" >&2
        exit 2
    fi
    cp "$so" "$dir/$name.so"
    php -d extension="$dir/$name.so" -r 'exit(extension_loaded("redislock") ? 0 : 1);' \
        || { echo "builds: $name build ($arg) does not load" >&2; exit 1; }
    echo "$id; .so sha1 $(sha1sum "$dir/$name.so" | cut -c1-12)" >"$dir/$name.id"
}

take_build old "$1"
if [[ $# -ge 2 ]]; then
    take_build new "$2"
else
    "$root/scripts/build.sh" >&2
    take_build new "$root/modules/redislock.so"
fi

# Every process from here on (redis-servers, the rounds, handoff workers) on
# one CPU: where the scheduler places a client and its server decides more
# than the build does (a 1-node cycle took 43 us with both on one core of a
# 2-core VM and 120 to 270 us across the two), and it places each process
# anew, so unpinned rounds would compare placements, not builds.
cpu=${BENCH_CPU:-$(($(nproc) - 1))}
placement="every process on CPU $cpu (taskset)"
if [[ $cpu == all ]]; then
    placement="not pinned (BENCH_CPU=all)"
elif ! taskset -p -c "$cpu" $$ >/dev/null; then
    echo "builds: cannot pin to CPU $cpu (taskset); not pinned" >&2
    placement="not pinned (taskset failed)"
fi

# start_redis N: a redis-server on a free loopback port; appends to servers.
# A port another process takes between the pick and the bind makes this
# server exit: then pick again.
servers=()
start_redis() {
    local port pid
    mkdir -p "$dir/redis$1"
    for _ in 1 2 3 4 5; do
        port=$(php "$root/tests/free_port.inc")
        redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir/redis$1" \
            >"$dir/redis$1/log" 2>&1 &
        pid=$!
        for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
        if kill -0 "$pid" 2>/dev/null; then
            pids+=("$pid")
            servers+=("127.0.0.1:$port")
            return 0
        fi
        wait "$pid" 2>/dev/null || true
    done
    echo "builds: redis-server did not start: $(tail -n 3 "$dir/redis$1/log")" >&2
    exit 1
}
for i in 1 2 3 4 5; do start_redis "$i"; done
list=$(IFS=,; echo "${servers[*]}")

# run R SCENARIO BUILD: one round of one scenario with BUILD, its line prefixed with R and BUILD
run() {
    php -d extension="$dir/$3.so" "$here/builds_round.php" "$2" "$list" "$dir/$3.so" | sed "s/^/$1 $3 /" >>"$dir/samples"
}
for ((r = 1; r <= rounds; r++)); do
    echo "builds: round $r of $rounds" >&2
    for s in cycle-1 cycle-3 cycle-5 handoff-1 handoff-4; do
        if ((r % 2)); then run "$r" "$s" old; run "$r" "$s" new; else run "$r" "$s" new; run "$r" "$s" old; fi
    done
done

{ php -d extension="$dir/old.so" "$here/header.php" "two builds of redislock, OLD against NEW, loopback" "${servers[0]}"
  echo "# placement: $placement"
  echo "# OLD: $(cat "$dir/old.id")"
  echo "# NEW: $(cat "$dir/new.id")"
  php "$here/builds_report.php" "$dir/samples"
} | tee "$results/builds.txt"
