#!/usr/bin/env bash
# The safety suite's long schedule, one run: every fault x mode x
# auto_extend row of tests/safety/, once per seed, then long histories (the
# seeded nemesis, several faults at once, for minutes) in every
# independent-node mode; the table goes to bench/results/safety.md (with
# the seeds and lengths it ran, docs/redlock.md quotes it), every run's
# counts, one JSON line each, to bench/results/safety-runs.jsonl; then the
# mutants (scripts/mutants.sh --no-phpt: bench/results/mutants.md).
#   bench/safety.sh [SEEDS (1,2,...,N or a count)] [SECONDS] [SENTINEL_CLUSTER_SEEDS] [LONG_SECONDS]
# Independent nodes (RedisLock, RedLock) run SECONDS a run (default 6);
# the Sentinel and Cluster modes at least 10 s (a failover takes seconds
# to land, and their set-up seconds more), with their own seeds when given
# (default: SEEDS); the long histories LONG_SECONDS (default 120). A run
# reproduces alone with its row and seed:
#   php -d extension=modules/redislock.so tests/safety/schedule.php \
#       --modes=redlock --faults=holder-pause --auto-extend=on --seeds=17 --seconds=20
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-1}
seconds=${2:-6}
slow_seeds=${3:-$seeds}
long=${4:-120}
[[ $seeds =~ ^[0-9]+$ ]] && seeds=$(seq -s, 1 "$seeds")
[[ $slow_seeds =~ ^[0-9]+$ ]] && slow_seeds=$(seq -s, 1 "$slow_seeds")
slow_seconds=$(php -r 'echo max(10, (float)$argv[1]);' "$seconds")
ext=$PWD/modules/redislock.so
[[ -f $ext ]] || { echo "bench/safety.sh: build the extension first (scripts/build.sh)" >&2; exit 2; }
# the workers load a copy: a rebuild during the hour this takes must not
# change the library under running processes
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$ext" "$work/redislock.so"
export REDISLOCK_TEST_EXT=$work/redislock.so
# the machine is this run's alone: the queue's order (first in, first woken) is judged too
export REDISLOCK_SAFETY_JUDGE_FIFO=1
nodes=redislock,redislock+fencing,redlock,redlock+fencing
node_faults=$(php -r 'require "tests/safety/topology_nodes.php";
    echo implode(",", array_diff(RlSafetyNodes::faults(), ["nemesis"]));')
run() {   # run OUT ARGS...: one schedule; its runs' JSON lines join the others
    local out=$1; shift
    php -d "extension=$REDISLOCK_TEST_EXT" tests/safety/schedule.php --out="$work/$out.md" "$@" \
        2>>bench/results/safety-runs.jsonl || status=$?
}
status=0
started=$(date -u +%FT%TZ)
: >bench/results/safety-runs.jsonl
run nodes --seeds="$seeds" --seconds="$seconds" --modes="$nodes" --faults="$node_faults"
run groups --seeds="$slow_seeds" --seconds="$slow_seconds" --modes=sentinel,sentinel+min_replicas,sentinel+fencing,cluster
run long --seeds="$seeds" --seconds="$long" --modes="$nodes" --faults=nemesis
{
    php bench/safety_table.php "$work/nodes.md" "$work/groups.md" "$work/long.md"
    echo
    echo "One run of bench/safety.sh $seeds $seconds $slow_seeds $long, from $started to $(date -u +%FT%TZ), on $(nproc) cores, redislock $(php -d "extension=$REDISLOCK_TEST_EXT" -r 'echo phpversion("redislock");') ($(git rev-parse --short HEAD 2>/dev/null || echo '?'))."
} >bench/results/safety.md
bench/safety_docs.sh
# the mutants, each against the safety check alone (bench/results/mutants.md):
# the long schedule's, not CI's (about an hour more); REDISLOCK_SAFETY_MUTANTS=0 skips them
if [[ ${REDISLOCK_SAFETY_MUTANTS:-1} != 0 ]]; then
    scripts/mutants.sh --no-phpt || status=$?
fi
exit $status
