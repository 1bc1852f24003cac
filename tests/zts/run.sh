#!/usr/bin/env bash
# The extension on a thread-safe (ZTS) PHP, run the way FrankenPHP runs PHP:
# a threaded host on the embed SAPI (tests/zts/host.c) runs the scenarios
# of tests/zts/*.php against a throwaway redis-server.
#
#   tests/zts/run.sh [--no-tsan] [--no-phpt]
#                                    (ZTS_ONLY=ac: only scenarios a and c;
#                                     ZTS_KEEP=1: keep the outputs of a failed run;
#                                     REDISLOCK_ZTS_PREFIX=DIR: where the ZTS PHP is cached)
#
# 1. scripts/zts-php.sh: a ZTS PHP with libphp.so and a CLI (built once, then cached);
# 2. the extension built against it in a scratch copy (out of the tree), and
#    the host;
# 3. the scenarios: a (8 threads x 500 contended lock/unlock cycles with
#    waiting, overlaps checked in Redis), b (fatal errors in one thread's
#    requests release its locks only), c (a long worker-mode request keeps its
#    pooled connections; requests after it reuse them; never one connection
#    for two threads), d (the watchdog keeps several threads' locks), e (a
#    request that goes on after fatal errors, tasks in a row as the parallel
#    extension runs them: the dead tasks' locks released at each error), f
#    (option on_lost: one thread's lost lock interrupts that thread only);
# 4. the same six again, fewer cycles, with the host and the extension built
#    with -fsanitize=thread (ThreadSanitizer: a data race fails the run);
# 5. the phpt suite on the ZTS PHP's CLI (tests/zts/phpt.sh: what cannot apply
#    there skips with its reason), its counts added to the scenarios'.
# One line per scenario, then exactly "N passed, M failed"; non-zero exit
# when anything failed. Needs what scripts/deps.sh installs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

tsan=1 phpt=1
for arg; do
    case $arg in
        --no-tsan) tsan=0 ;;
        --no-phpt) phpt=0 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

# ZTS_ONLY=abcdef: only these scenarios (default: all)
want() { [[ ${ZTS_ONLY:-abcdef} == *$1* ]]; }
planned=()
for s in a b c d e f; do want $s && planned+=("$s"); done
if ((tsan)); then for s in a b c d e f; do want $s && planned+=("$s-tsan"); done; fi
((phpt)) && planned+=(phpt)
# Nothing could run (no ZTS PHP, a build failed, no server): every planned
# scenario is a failure with the reason, never a skip.
die() {
    local s
    echo "zts: $*" >&2
    for s in "${planned[@]}"; do echo "FAIL $s: cannot run: $*"; done
    echo "0 passed, ${#planned[@]} failed"
    exit 1
}
command -v redis-server >/dev/null || die "redis-server not found (run scripts/deps.sh)"
command -v redis-cli >/dev/null || die "redis-cli not found (run scripts/deps.sh)"

prefix=$("$root/scripts/zts-php.sh") || die "no ZTS PHP (scripts/zts-php.sh failed)"
php_config=$prefix/bin/php-config
echo "zts: PHP $("$php_config" --version) ZTS with embed and CLI in $prefix"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/redislock-zts.XXXXXX")
redis_pids=()
cleanup() {
    set +e
    local pid
    for pid in "${redis_pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the extension, built in a scratch copy against the ZTS PHP -------------
build_ext() {   # build_ext DIR EXTRA-CFLAGS EXTRA-LDFLAGS
    local dir=$1 cflags=$2 ldflags=$3
    mkdir -p "$dir"
    # the sources only: an in-tree NTS build (scripts/build.sh) leaves objects beside them
    (cd "$root" && find config.m4 ext src stubs \( -name '*.[ch]' -o -name '*.m4' -o -name '*.php' \) \
        -not -path 'src/tests/*' -print0 | tar -c --null -T - -f - | tar -x -C "$dir" -f -)
    touch "$dir"/stubs/*_arginfo.h   # newer than the stub: never regenerated
    (
        cd "$dir"
        "$prefix/bin/phpize" >build.log 2>&1
        CFLAGS="-O1 -g $cflags" LDFLAGS="$ldflags" ./configure --with-php-config="$php_config" >>build.log 2>&1
        make -j2 >>build.log 2>&1
    ) || { tail -30 "$dir/build.log" >&2; die "the extension did not build against the ZTS PHP ($dir/build.log)"; }
    [[ -f $dir/modules/redislock.so ]] || die "no $dir/modules/redislock.so"
}

build_host() {   # build_host OUTPUT EXTRA-FLAGS
    # shellcheck disable=SC2046,SC2086   # $2: flags, maybe none
    cc -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers $2 \
        $("$php_config" --includes) "$here/host.c" -o "$1" \
        -L"$prefix/lib" -lphp -Wl,-rpath,"$prefix/lib" -pthread \
        || die "the host did not build"
}

echo "zts: building the extension and the host"
build_ext "$tmp/ext" "" ""
grep -q '^#define ZTS 1' "$prefix/include/php/main/php_config.h" || die "$prefix is not a ZTS PHP"
build_host "$tmp/host" ""
if ((tsan)); then
    build_ext "$tmp/ext-tsan" "-fsanitize=thread" "-fsanitize=thread"
    build_host "$tmp/host-tsan" "-fsanitize=thread"
fi

# --- throwaway redis-servers on free loopback ports -------------------------
# a port of this run's own range (tests/free_port.inc); redis-server's bind is the real test (retried)
export REDISLOCK_TEST_PORT_BASE=${REDISLOCK_TEST_PORT_BASE:-$((10000 + $$ % 20 * 1000))}
free_port() {
    php -n "$here/../free_port.inc"
}
# start_redis NAME: one more server in $tmp/NAME; its port in $port, its pid in redis_pids
start_redis() {
    local dir=$tmp/$1 pid
    port=''
    for _ in 1 2 3 4 5; do
        port=$(free_port) || die "no free port"
        mkdir -p "$dir"
        redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no \
            --dir "$dir" --logfile "$dir/redis.log" --maxclients 1000 </dev/null >/dev/null 2>&1 &
        pid=$!
        for _ in $(seq 100); do
            [[ $(redis-cli -p "$port" ping 2>/dev/null) == PONG ]] && break
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.05
        done
        if [[ $(redis-cli -p "$port" ping 2>/dev/null) == PONG ]]; then
            redis_pids+=("$pid")
            return 0
        fi
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    die "redis-server did not start"
}
# RedLock's nodes (scenario e) first, then the server every scenario uses
start_redis redis-n1; nodes=127.0.0.1:$port
start_redis redis-n2; nodes+=,127.0.0.1:$port
start_redis redis; export REDISLOCK_ZTS_NODES=$nodes,127.0.0.1:$port
export REDISLOCK_ZTS_PORT=$port
rcli() { redis-cli -p "$port" "$@"; }

# --- the scenarios ----------------------------------------------------------
passed=0 failed=0
verdict() {   # verdict NAME DETAIL: passes when $why (what went wrong) is empty
    if [[ -z $why ]]; then
        passed=$((passed + 1)); echo "PASS $1: $2"
    else
        failed=$((failed + 1)); echo "FAIL $1: ${why# }"
    fi
}

# How the host loads the extension: as a php.ini does (extension=), or, under
# ThreadSanitizer, by the host's own dlopen() (-m): PHP's asks for
# RTLD_DEEPBIND, which the sanitizer's runtime refuses.
load=ini
# run_host NAME HOST EXT THREADS REQUESTS SCRIPT [ENV=V...]: runs it; sets $out
# (its output file) and $why (what is wrong, empty when every request said ok).
run_host() {
    local name=$1 host=$2 ext=$3 threads=$4 requests=$5 script=$6 rc=0 nok nfail
    shift 6
    out=$tmp/$name.out
    local how=(-d "extension=$ext")
    [[ $load == dlopen ]] && how=(-m "$ext")
    [[ -n ${host_tasks:-} ]] && how+=(-s "$host_tasks")
    local p
    for p in ${REDISLOCK_ZTS_NODES//,/ }; do redis-cli -p "${p##*:}" flushall >/dev/null; done
    rcli acl deluser w0 w1 w2 w3 w4 w5 w6 w7 >/dev/null
    env "$@" TSAN_OPTIONS="${TSAN_OPTIONS:-} exitcode=66 log_path=$tmp/$name.tsan" \
        timeout 600 "$host" -t "$threads" -n "$requests" "${how[@]}" "$here/$script" \
        >"$out" 2>"$tmp/$name.err" || rc=$?
    nok=$(grep -c '^\[t[0-9]*\.r[0-9]*\] ok ' "$out" || true)
    nfail=$(grep -c '^\[t[0-9]*\.r[0-9]*\] FAIL ' "$out" || true)
    why=''
    ((rc == 0)) || why+=" host exit $rc;"
    ((nfail == 0)) || why+=" $nfail checks failed: $(grep -m3 '] FAIL ' "$out" | sed 's/^\[[^]]*\] FAIL //' | paste -sd';' -);"
    ((nok > 0)) || why+=" no check ran;"
    if ls "$tmp/$name.tsan".* >/dev/null 2>&1; then
        why+=" ThreadSanitizer: $({ grep -h '^SUMMARY: ' "$tmp/$name.tsan".*; grep -h 'WARNING: \|ERROR: ' "$tmp/$name.tsan".*; } | head -1 || true) (the report is on stderr);"
        head -n 80 "$tmp/$name.tsan".* >&2 || true
    fi
    # a request that printed neither verdict nor the expected status: an error
    if grep -q 'Segmentation\|Fatal error' "$tmp/$name.err" 2>/dev/null; then
        why+=" $(head -1 "$tmp/$name.err");"
    fi
    oks=$nok
}

exit_of() {   # exit_of T R: the exit status the host printed for request T.R
    sed -n "s/^\[t$1\.r$2\] exit=\(-\?[0-9]*\)$/\1/p" "$out"
}

scenario_a() {   # scenario_a LABEL HOST EXT THREADS CYCLES
    local label=$1 threads=$4 cycles=$5 all cyc ovl
    all=$((threads * cycles))
    run_host "a$label" "$2" "$3" "$threads" 2 contended.php "ZTS_CYCLES=$cycles"
    cyc=$(rcli get a:cycles); ovl=$(rcli get a:overlaps)
    [[ $cyc == "$all" ]] || why+=" a:cycles $cyc, want $all;"
    [[ $ovl == 0 ]] || why+=" a:overlaps $ovl;"
    verdict "a$label" "$threads threads x $cycles contended lock/unlock cycles with waiting: $cyc cycles, $ovl overlaps in Redis; stats() per process ($oks checks)"
}

scenario_b() {   # scenario_b LABEL HOST EXT THREADS
    run_host "b$1" "$2" "$3" "$4" 4 fatal.php
    [[ $(exit_of 0 0) == 255 ]] || why+=" request 0.0 exit $(exit_of 0 0), want 255 (fatal);"
    [[ $(exit_of 0 1) == 255 ]] || why+=" request 0.1 exit $(exit_of 0 1), want 255 (uncaught Error);"
    [[ $(exit_of 0 2) == 255 ]] || why+=" request 0.2 exit $(exit_of 0 2), want 255 (max_execution_time);"
    grep -q '^\[t0\.r0\] .*Allowed memory size' "$out" || why+=" no memory-limit fatal error seen;"
    grep -q '^\[t0\.r1\] .*Call to undefined function' "$out" || why+=" no undefined-function error seen;"
    grep -q '^\[t0\.r2\] .*Maximum execution time' "$out" || why+=" no max_execution_time fatal error seen;"
    verdict "b$1" "fatal errors (memory limit; max_execution_time in a lock wait) and an uncaught Error in thread 0's requests: its locks released at their end, the other $(($4 - 1)) threads' locks still held ($oks checks)"
}

scenario_c() {   # scenario_c LABEL HOST EXT THREADS UNITS
    run_host "c$1" "$2" "$3" "$4" 4 worker.php "ZTS_UNITS=$5"
    verdict "c$1" "worker mode: $4 threads, $5 units of work in one request each, same CLIENT IDs before and after and in the 3 requests after; one pool per thread ($oks checks)"
}

scenario_d() {   # scenario_d LABEL HOST EXT THREADS
    run_host "d$1" "$2" "$3" "$4" 12 watchdog.php
    verdict "d$1" "watchdog: $(($4 - 1)) threads' auto_extend locks (TTL 600 ms) kept 3 s while thread 0's requests end; thread 0's left locks expire ($oks checks)"
}

scenario_e() {   # scenario_e LABEL HOST EXT THREADS
    host_tasks=3 run_host "e$1" "$2" "$3" "$4" 1 bailout.php
    [[ $(grep -c '^\[t0\.r0\] task [0-9] exit=' "$out") == 3 ]] || why+=" thread 0 did not run its 3 tasks in one request;"
    grep -q '^\[t0\.r0\] task 0 exit=255' "$out" || why+=" task 0 did not die (exit 255);"
    grep -q '^\[t0\.r0\] .*Allowed memory size' "$out" || why+=" no memory-limit fatal error seen;"
    grep -q '^\[t0\.r0\] .*Call to undefined function' "$out" || why+=" no undefined-function error seen;"
    verdict "e$1" "a request that goes on after fatal errors (3 tasks in one request, as parallel runs them): the dead tasks' locks (two kept by the watchdog, one a RedLock on 3 servers) released at each fatal error; the other $(($4 - 1)) threads' locks still held ($oks checks)"
}

scenario_f() {   # scenario_f LABEL HOST EXT THREADS
    run_host "f$1" "$2" "$3" "$4" 1 onlost.php
    verdict "f$1" "on_lost: thread 1's auto_extend lock deleted by thread 0, thread 1's busy code interrupted; the other $(($4 - 2)) threads' busy code not, their locks held ($oks checks)"
}

ext=$tmp/ext/modules/redislock.so
want a && scenario_a "" "$tmp/host" "$ext" 8 "${ZTS_CYCLES:-500}"
want b && scenario_b "" "$tmp/host" "$ext" 8
want c && scenario_c "" "$tmp/host" "$ext" 8 "${ZTS_UNITS:-300}"
want d && scenario_d "" "$tmp/host" "$ext" 4
want e && scenario_e "" "$tmp/host" "$ext" 4
want f && scenario_f "" "$tmp/host" "$ext" 4
if ((tsan)); then
    # every request again, fewer cycles, with the host and the extension
    # under ThreadSanitizer (libphp itself is not instrumented)
    export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1"
    load=dlopen
    ext=$tmp/ext-tsan/modules/redislock.so
    want a && scenario_a "-tsan" "$tmp/host-tsan" "$ext" 8 50
    want b && scenario_b "-tsan" "$tmp/host-tsan" "$ext" 4
    want c && scenario_c "-tsan" "$tmp/host-tsan" "$ext" 4 40
    want d && scenario_d "-tsan" "$tmp/host-tsan" "$ext" 4
    want e && scenario_e "-tsan" "$tmp/host-tsan" "$ext" 4
    want f && scenario_f "-tsan" "$tmp/host-tsan" "$ext" 4
fi

# The phpt suite on the ZTS CLI, with servers of its own; its last line's
# counts join the scenarios' (a run that printed none is one failure).
if ((phpt)); then
    echo "zts: === the phpt suite on the ZTS CLI (tests/zts/phpt.sh) ==="
    "$here/phpt.sh" 2>&1 | tee "$tmp/phpt.log" || true
    if [[ $(tail -n1 "$tmp/phpt.log") =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2]))
    else
        failed=$((failed + 1)); echo "FAIL phpt: tests/zts/phpt.sh printed no counts"
    fi
fi

if ((failed)) && [[ ${ZTS_KEEP:-0} == 1 ]]; then
    keep=/tmp/redislock-zts-failed.$$; cp -a "$tmp" "$keep"; echo "zts: outputs kept in $keep" >&2
fi
echo "$passed passed, $failed failed"
((failed == 0))
