#!/usr/bin/env bash
# Run the phpt suite against 5 throwaway redis-server processes.
#
#   tests/run-suite.sh [--no-valgrind|--valgrind-only] [--no-phpt] [TEST.phpt|DIR ...]
#
# The tests live in topic folders (tests/core, tests/redlock, ...); a DIR
# runs every test under it, tests/ (the default) all of them.
#
# Pass 1 runs the tests normally; pass 2 (skipped by --no-valgrind or
# REDISLOCK_VALGRIND=0) runs them under valgrind (run-tests -m) for leaks.
# Between them the bridge/ phpunit suites run (REDISLOCK_BRIDGES, default
# "symfony laravel"; empty for none); --no-phpt runs only those;
# --valgrind-only runs pass 2 alone (scripts/test-all.sh runs it beside
# pass 1, each with its own servers).
# The last line is "N passed, M failed" over both passes (skips are listed
# on the line before), after "$REDISLOCK_SUITE_LABEL: " when that is set;
# the exit status is non-zero when anything failed/leaked/borked or nothing
# passed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

valgrind=1 phpt=1 normal=1
[[ ${REDISLOCK_VALGRIND:-1} == 0 ]] && valgrind=0
targets=()
for arg; do
    case $arg in
        --no-valgrind) valgrind=0 ;;
        --valgrind) valgrind=1 ;;
        --valgrind-only) valgrind=1 normal=0 ;;
        --no-phpt) phpt=0 valgrind=0 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) targets+=("$(realpath -- "$arg")") ;;   # absolute: we cd below
    esac
done
((${#targets[@]})) || targets=("$here")
cd "$root"

die() { echo "run-suite: $*" >&2; exit 1; }

php=$(command -v php) || die "php not found"
redis_server=${REDISLOCK_TEST_REDIS_SERVER:-$(command -v redis-server || true)}
[[ -x $redis_server ]] || die "redis-server not found (run scripts/deps.sh)"
ext=$root/modules/redislock.so
[[ -f $ext ]] || die "$ext missing (run scripts/build.sh)"
"$php" -d "extension=$ext" -r 'exit(extension_loaded("redislock") ? 0 : 1);' \
    || die "$ext does not load"
((valgrind == 0)) || command -v valgrind >/dev/null || die "valgrind not found (or use --no-valgrind)"

# run-tests.php: the copy phpize put in the repo root, else the system one.
run_tests=
for f in "$root/run-tests.php" \
         "$(php-config --prefix 2>/dev/null)/lib/php/$(php-config --phpapi 2>/dev/null)/build/run-tests.php" \
         /usr/lib/php/*/build/run-tests.php; do
    [[ -f $f ]] && { run_tests=$f; break; }
done
[[ -n $run_tests ]] || die "run-tests.php not found (install php-dev)"

# --- throwaway redis servers -------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/redislock-suite.XXXXXX")
pids=()
# Tests load a copy: a rebuild during the run must not rewrite a library that
# running processes have mapped.
cp "$ext" "$tmp/redislock.so"
ext=$tmp/redislock.so

# run-tests runs a failed test once more when its output looks flaky, and a
# pass then is WARN without a word of the first attempt. A copy of it that
# writes that attempt's output down lets a CI log say why a test failed once.
first_attempts=$tmp/first-attempts
if grep -q '^function error_may_be_retried(TestFile $test, string $output): bool$' "$run_tests"; then
    sed 's/^function error_may_be_retried(/function rl_retry_wanted(/' "$run_tests" >"$tmp/run-tests.php"
    cat >>"$tmp/run-tests.php" <<'PHP'

function error_may_be_retried(TestFile $test, string $output): bool
{
    $retry = rl_retry_wanted($test, $output);
    if ($retry && ($log = getenv('REDISLOCK_FIRST_ATTEMPTS')) !== false) {
        file_put_contents($log, 'run-suite: first attempt of ' . trim($test->getSection('TEST')) . "\n"
            . $output . "\nrun-suite: end of first attempt\n", FILE_APPEND | LOCK_EX);
    }
    return $retry;
}
PHP
    run_tests=$tmp/run-tests.php
fi
export REDISLOCK_FIRST_ATTEMPTS=$first_attempts
# What tests say of themselves beside their output (rl_test_note(): a fault
# demonstration run again because the first did not take effect), printed
# after each pass.
notes=$tmp/notes
export REDISLOCK_TEST_NOTES=$notes

alive() {   # running and not a zombie
    local state
    state=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) || return 1
    [[ $state != Z ]]
}

stop_pid() {   # SIGTERM, then SIGKILL after 5 s
    local pid=$1 i
    kill -CONT "$pid" 2>/dev/null || true   # a SIGSTOPped server ignores TERM
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null || true   # reap it if it is our child
}

rt_pid='' tail_pid=''
cleanup() {
    local pid f i
    set +e   # clean up as much as possible, whatever fails
    if [[ -n $rt_pid ]]; then   # interrupted during a pass
        kill -TERM -- "-$rt_pid" 2>/dev/null || true
        for ((i = 0; i < 30; i++)); do alive "$rt_pid" || break; sleep 0.1; done
        kill -KILL -- "-$rt_pid" 2>/dev/null || true
        [[ -n $tail_pid ]] && kill "$tail_pid" 2>/dev/null
    fi
    for pid in "${pids[@]}"; do stop_pid "$pid"; done
    # Private servers of tests (RlTestServer) that a crashed/killed test left:
    # each records its pid in $TMPDIR/rl-redis-*/rl-server.pid.
    for f in "$tmp"/t/rl-redis-*/rl-server.pid; do
        [[ -f $f ]] || continue
        pid=$(<"$f")
        # redis rewrites its cmdline, but it runs chdir'ed into its --dir
        if alive "$pid" && [[ $(readlink "/proc/$pid/cwd" 2>/dev/null) == "$tmp"/* ]]; then
            echo "run-suite: killing leftover test redis-server $pid" >&2
            kill -KILL "$pid" 2>/dev/null || true
            # not our child: give init a moment to reap it
            for ((i = 0; i < 20; i++)); do [[ -e /proc/$pid ]] || break; sleep 0.1; done
        fi
    done
    # Servers a crashed test left without a pid file (sentinel and cluster
    # nodes, the bridge suites' servers): found by their working directory,
    # which is inside this run's temp dir, and stopped by pid.
    for f in /proc/[0-9]*/cwd; do
        pid=${f#/proc/}; pid=${pid%/cwd}
        if [[ $(readlink "$f" 2>/dev/null) == "$tmp"/* ]] && alive "$pid"; then
            echo "run-suite: killing leftover server $pid" >&2
            kill -KILL "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# This suite's ports (tests/free_port.inc): a range of its own, below the
# kernel's ephemeral ports; scripts/test-all.sh gives each suite it runs at
# once another. By hand: one of 20 ranges from 10000, by this shell's pid.
export REDISLOCK_TEST_PORT_BASE=${REDISLOCK_TEST_PORT_BASE:-$((10000 + $$ % 20 * 1000))}
free_port() {
    "$php" -n "$root/tests/free_port.inc"
}

pings() {   # pings PORT: does a server answer PING there?
    if command -v redis-cli >/dev/null; then
        [[ $(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null) == PONG ]]
    else
        local line
        { exec 3<>"/dev/tcp/127.0.0.1/$1"; } 2>/dev/null || return 1
        printf 'PING\r\n' >&3
        read -r -t 1 line <&3 || true
        exec 3>&-
        [[ $line == +PONG* ]]
    fi
}

ports=()
start_server() {   # start_server N: start server N, retrying if its port got taken
    local n=$1 try port pid dir=$tmp/redis-$1 i
    mkdir -p "$dir"
    for ((try = 0; try < 5; try++)); do
        port=$(free_port)
        "$redis_server" --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
            --daemonize no --dir "$dir" --logfile "$dir/redis.log" </dev/null >/dev/null 2>&1 &
        pid=$!
        pids+=("$pid")
        for ((i = 0; i < 100; i++)); do
            alive "$pid" || break
            if pings "$port"; then ports+=("$port"); return 0; fi
            sleep 0.05
        done
        stop_pid "$pid"
    done
    cat "$dir/redis.log" >&2 || true
    die "redis-server #$n did not start"
}

for n in 1 2 3 4 5; do start_server "$n"; done
mkdir "$tmp/t"
# The valgrind pass alone (--valgrind-only: scripts/test-all.sh runs it beside
# a normal pass) runs a copy of tests/: run-tests writes each test's .php,
# .out and .diff beside its .phpt, and two passes in one folder delete each
# other's files (both begin with the same test).
if ((normal == 0)); then
    mkdir "$tmp/copy"
    cp -r "$here" "$tmp/copy/tests"
    ln -s "$root/src" "$tmp/copy/src"   # test 073 reads src/lock/lua/
    ln -s "$root/bridge" "$tmp/copy/bridge"   # test 254 runs bridge/bin/redislock
    for i in "${!targets[@]}"; do targets[i]=${targets[i]/#"$here"/$tmp/copy/tests}; done
fi

export REDISLOCK_TEST_HOST=127.0.0.1
REDISLOCK_TEST_PORTS=$(IFS=,; echo "${ports[*]}")
export REDISLOCK_TEST_PORTS
export REDISLOCK_TEST_REDIS_SERVER=$redis_server
export REDISLOCK_TEST_EXT=$ext
export TEST_PHP_EXECUTABLE=$php
export TMPDIR=$tmp/t   # tests' temp dirs (and private servers) live here
echo "run-suite: redis on 127.0.0.1:{$REDISLOCK_TEST_PORTS}"

# --- passes --------------------------------------------------------------------
# Tests run before this script (the core's C unit tests, by test-all.sh)
# are counted in the final line too.
passed=${REDISLOCK_EARLIER_PASSED:-0} failed=${REDISLOCK_EARLIER_FAILED:-0} skipped=0

count() {   # count LABEL LOG: the number on run-tests' "LABEL : N (..%)" line
    sed -n "s/^$1 *: *\([0-9][0-9]*\).*/\1/p" "$2" | tail -n1 | grep . || echo 0
}

# Tests that run in the normal pass only, each with the reason; the
# valgrind pass runs every other test, and with them every C path these use.
normal_only_reasons=(
    "3[0-9][0-9]-fpm-*.phpt 097-fpm-tls-reuse.phpt 705-fpm-watchdog.phpt: the extension runs in php-fpm workers, which valgrind does not trace; under valgrind only the test script would be watched"
    "701-watchdog-holder-dies.phpt: five holders that each live twice their TTL, one after another (30 s under valgrind); the watchdog's stop at request end and at exit run under valgrind in 700, 702 and 703"
    "704-watchdog-contention.phpt: timing under contention (sections longer than a 150 ms TTL) that valgrind's slowed thread cannot keep; its paths run under valgrind in 700 and 702"
    "90[1-9]-safety-*.phpt 91[0-9]-safety-*.phpt: the safety suite's short schedule, 4 worker processes x a row per mode a test with faults timed against 400 ms TTLs, which valgrind's tenfold slowdown turns into expiries; the calls they make (lock, unlock, fencing, auto_extend, reconnects after CLIENT KILL, SCRIPT FLUSH, restarts, a stalled node) run under valgrind in 044, 037, 045, 060, 103, 111, 600-603, 700-703"
)

# valgrind_targets: the test files of the targets (a folder's at any depth,
# as run-tests finds them), less the normal-only ones.
valgrind_targets() {
    local t f base entry pattern skip patterns found
    for t in "${targets[@]}"; do
        if [[ -d $t ]]; then
            mapfile -t found < <(find "$t" -name '*.phpt' | sort)
            set -- "${found[@]}"
        else
            set -- "$t"
        fi
        for f; do
            base=${f##*/}
            skip=0
            for entry in "${normal_only_reasons[@]}"; do
                read -ra patterns <<<"${entry%%:*}"   # no pathname expansion
                for pattern in "${patterns[@]}"; do
                    # shellcheck disable=SC2053
                    [[ $base == $pattern ]] && skip=1
                done
            done
            ((skip)) || echo "$f"
        done
    done
}

run_pass() {   # run_pass NAME [run-tests options]
    local name=$1 log=$tmp/$1.log
    shift
    echo "run-suite: === $name pass ==="
    for port in "${ports[@]}"; do redis-cli -p "$port" flushall >/dev/null 2>&1 || true; done
    # run-tests runs in its own process group (setsid), so that an interrupt
    # can end it with every test php and server under it; "wait" lets the
    # INT/TERM traps run at once. Its exit status is not used: the summary is.
    local files=("${targets[@]}")
    if [[ $name == valgrind ]]; then
        mapfile -t files < <(valgrind_targets)
        printf 'run-suite: normal pass only: %s\n' "${normal_only_reasons[@]}"
        ((${#files[@]})) || { echo "run-suite: nothing left for the valgrind pass"; return 0; }
    fi
    : >"$log"   # before tail starts: on a loaded machine it could look first
    setsid "$php" "$run_tests" -q --show-diff --show-slow 8000 -d "extension=$ext" "$@" "${files[@]}" \
        </dev/null >"$log" 2>&1 &
    rt_pid=$!
    tail -n +1 -s 0.2 -f --pid="$rt_pid" "$log" &
    tail_pid=$!
    wait "$rt_pid" || true
    wait "$tail_pid" || true
    rt_pid='' tail_pid=''
    if ! grep -q '^Number of tests' "$log"; then
        # run-tests ended without its summary (killed, or crashed): what ran
        # is not known to have passed, so the pass counts as one failure
        echo "run-suite: the $name pass ended without run-tests' summary: counted as 1 failed; its log ended:"
        tail -n 20 "$log"
        failed=$((failed + 1))
    fi
    if [[ -s $notes ]]; then
        echo "run-suite: notes of the $name pass's tests:"
        sed 's/^/run-suite: note: /' "$notes" | head -n 60
        : >"$notes"
    fi
    if [[ -s $first_attempts ]]; then
        echo "run-suite: tests run-tests ran twice (a pass on the retry is WARN, counted as failed):"
        head -n 120 "$first_attempts"
        : >"$first_attempts"
    fi
    passed=$((passed + $(count 'Tests passed' "$log")))
    skipped=$((skipped + $(count 'Tests skipped' "$log")))
    failed=$((failed + $(count 'Tests failed' "$log") + $(count 'Tests warned' "$log") \
        + $(count 'Tests leaked' "$log") + $(count 'Tests borked' "$log")))
}

((phpt && normal)) && run_pass normal

# The bridge/ phpunit suites (Symfony, Laravel) against Debian's framework
# packages. They run PHP code over C paths the phpt tests cover, so they are
# left out of the valgrind pass. Counted from phpunit's JUnit log: a skipped
# test (its framework missing) is neither passed nor failed; a run that fails
# with nothing counted as failed (a risky test, a warning, a crash) counts as
# one failure.
run_bridge() {
    local suite=$1 log=$tmp/bridge-$1.log junit=$tmp/bridge-$1.xml rc=0 counts
    echo "run-suite: === bridge: $suite (phpunit) ==="
    if ! command -v phpunit >/dev/null; then
        echo "run-suite: phpunit not installed: bridge suite $suite not run"; failed=$((failed + 1)); return
    fi
    # REDISLOCK_BRIDGE_INCLUDE_PATH: where a framework's other version is
    # unpacked, searched before Debian's /usr/share/php
    local inc=()
    [[ -n ${REDISLOCK_BRIDGE_INCLUDE_PATH:-} ]] \
        && inc=(-d "include_path=.:$REDISLOCK_BRIDGE_INCLUDE_PATH:/usr/share/php")
    # PHPUnit 9 has a configuration schema of its own; 10+ keeps its result
    # cache in --cache-directory (the option to turn it off is deprecated in 13)
    local config=(--configuration phpunit.xml.dist --cache-directory "$tmp/phpunit-cache")
    [[ $("$php" "$(command -v phpunit)" --version) =~ PHPUnit\ ([0-9]+)\. ]] \
        && ((BASH_REMATCH[1] < 10)) && config=(--configuration phpunit-9.xml.dist)
    (cd "$root/bridge" && TMPDIR=$tmp/t REDISLOCK_TEST_REDIS_SERVER=$redis_server \
        timeout 600 "$php" -d "extension=$ext" "${inc[@]}" "$(command -v phpunit)" \
        "${config[@]}" --testsuite "$suite" \
        --log-junit "$junit" </dev/null >"$log" 2>&1) || rc=$?
    grep -v '^$' "$log" | tail -n 30
    counts=$("$php" -r '$x = @simplexml_load_file($argv[1]); $s = $x ? $x->testsuite : null;
        echo $s ? (int)$s["tests"] . " " . ((int)$s["failures"] + (int)$s["errors"]) . " " . (int)$s["skipped"] : "0 0 0";' "$junit")
    read -r total bad skip <<<"$counts"
    ((rc != 0 && bad == 0)) && bad=1
    local good=$((total - bad - skip))
    ((good < 0)) && good=0
    passed=$((passed + good)) failed=$((failed + bad)) skipped=$((skipped + skip))
    echo "run-suite: bridge $suite: $good passed, $bad failed, $skip skipped"
}
((normal)) && for suite in ${REDISLOCK_BRIDGES-symfony laravel}; do run_bridge "$suite"; done
if ((valgrind && phpt)); then
    # run-tests -m runs "valgrind -q --trace-children=yes", which reports
    # memory errors but no leaks: ask for definite leaks as errors too.
    # Traced children would write to (and truncate) the test's own log, so
    # none is traced: redis-server runs natively and RlTestChild gives child
    # php its own valgrind (which reads these options too). Extensions stay
    # loaded at exit so that leak stacks have symbols. valgrind runs one
    # thread at a time, and by default a thread that never blocks (busy PHP
    # code) takes its lock back before a waiting one gets it: the watchdog
    # thread then ran seconds late (its extensions late past a lock's
    # validity), which a kernel's scheduler never does; --fair-sched=yes
    # hands the lock over in turn.
    VALGRIND_OPTS="${VALGRIND_OPTS:-} --leak-check=full --show-leak-kinds=definite
        --errors-for-leak-kinds=definite --trace-children-skip=* --fair-sched=yes" \
    REDISLOCK_TEST_VALGRIND=1 USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1 \
        run_pass valgrind -m
fi

# Skipped tests are neither passed nor failed; the last line is the verdict.
echo "run-suite: $skipped skipped (not counted below)"
echo "${REDISLOCK_SUITE_LABEL:+$REDISLOCK_SUITE_LABEL: }$passed passed, $failed failed"
((failed == 0 && passed > 0))
