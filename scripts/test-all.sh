#!/usr/bin/env bash
# The whole test suite from a fresh machine: dependencies, a clean build,
# the generated files checked, then every test (normal pass + valgrind pass).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

started=$SECONDS
# from scratch: no cached Debian roots nor ZTS PHP yet (the first run builds them)
if [[ -d ${REDISLOCK_ROOTS:-/var/cache/redislock/roots} || -d ${REDISLOCK_ZTS_PREFIX:-/var/cache/redislock/php-zts} ]]; then
    cache_state="roots and ZTS PHP cached"
else
    cache_state="from scratch: roots and ZTS PHP built"
fi
./scripts/deps.sh

# The platform matrix (scripts/platform/matrix.sh): three lanes (the sid rows
# in two: one lane took the run past 20 minutes; a root is made by one lane
# at a time, scripts/platform/root.sh),
# in the background from here on, while the host builds and runs its suite:
# its rows wait on servers and sleeps far more than they compute.
# REDISLOCK_MATRIX=0 leaves it out (said so below, for a quick run by hand;
# CI always runs it).
work=$(mktemp -d "${TMPDIR:-/tmp}/redislock-all.XXXXXX")
matrix_pids=() valgrind_pids=()
stop_matrix() {
    local pid
    # each job is a process group of its own (setsid): end all of it
    for pid in "${matrix_pids[@]}" "${valgrind_pids[@]}" ${safety_pid:-} ${load_pid:-}; do kill -TERM -- "-$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap stop_matrix EXIT
# Two lanes, not three: with the host's normal, valgrind and safety passes
# beside them, a third lane (the thread-safe row, zts: tests/zts/run.sh on
# the host, now last in the second) left 2 cores so busy that timing tests
# passed only on run-tests' retry, which counts as a failure here. The
# first run builds the ZTS PHP (4 to 5 min, then cached).
matrix_groups=("trixie-redis trixie-valkey" "sid-redis sid-valkey" "sid-symfony81 sid-php86 zts")
if [[ ${REDISLOCK_MATRIX:-1} != 0 ]]; then
    for i in "${!matrix_groups[@]}"; do
        # shellcheck disable=SC2086
        # a port range per suite running at once (tests/free_port.inc)
        REDISLOCK_TEST_PORT_BASE=$((21000 + i * 1000)) REDISLOCK_MATRIX_TABLE=$work/rows-$i setsid ./scripts/platform/matrix.sh ${matrix_groups[$i]} \
            </dev/null >"$work/matrix-$i.log" 2>&1 &
        matrix_pids+=($!)
    done
fi

# Clean state: make clean also removes objects in subdirs (ext/, src/),
# which phpize --clean does not.
if [[ -f Makefile ]]; then
    make clean >/dev/null
fi
if [[ -f configure ]]; then
    phpize --clean >/dev/null
fi
./scripts/build.sh

./scripts/gen-arginfo.sh --check
./scripts/check-layers.sh          # src/ includes downward only, no circles of modules
./scripts/check-errors.sh          # docs/errors.md against the status map
./scripts/check-test-names.sh      # tests named NNN-words.phpt, no number twice in tests/
./scripts/check-style.sh           # .clang-format on src/ and ext/, PSR-12 on bridge/
php scripts/gen-lua.php --check   # the lock scripts' C strings against src/lock/lua/
./scripts/package-xml.sh --check
php scripts/check-composer.php   # PIE's composer.json against the build
# the PECL tarball builds from package.xml (every listed file exists)
pkgdir=$(mktemp -d)
(cd "$pkgdir" && pecl package "$OLDPWD/package.xml" >/dev/null) || { echo "pecl package failed" >&2; exit 1; }
rm -rf "$pkgdir"

# The safety suite's short schedule (tests 901-913 for Sentinel and
# Cluster, then scripts/safety-quick.sh for RedisLock and RedLock on
# independent nodes; tests/safety/ci.sh) on the host, beside the rest of
# the host's suite, with servers and ports of its own: its runs wait on
# sections and faults far more than they compute. Its counts join the
# host's. Not when test files are named (a run by hand).
host_targets=("$@")
if (($# == 0)); then
    host_targets=(tests/*/[0-8]*.phpt tests/safety/900-*.phpt)
    REDISLOCK_EARLIER_PASSED=0 REDISLOCK_EARLIER_FAILED=0 REDISLOCK_TEST_PORT_BASE=24000 REDISLOCK_BRIDGES= REDISLOCK_SUITE_LABEL=bookworm-safety \
        setsid ./tests/safety/ci.sh </dev/null >"$work/safety.log" 2>&1 &
    safety_pid=$!
fi

# The plain-C core alone, with ASan and UBSan; its counts join the final line.
unit=$(src/tests/run.sh 2>&1) || true
echo "$unit"
line=$(tail -n1 <<<"$unit")
if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    export REDISLOCK_EARLIER_PASSED=${BASH_REMATCH[1]} REDISLOCK_EARLIER_FAILED=${BASH_REMATCH[2]}
else
    export REDISLOCK_EARLIER_PASSED=0 REDISLOCK_EARLIER_FAILED=1   # did not build or crashed
fi

# The fuzz targets (libFuzzer, no PHP), each for REDISLOCK_FUZZ_SECONDS
# (default 30) on a copy of its corpus; their counts join the final line too.
fuzz=$(fuzz/run.sh "${REDISLOCK_FUZZ_SECONDS:-30}" 2>&1) || true
echo "$fuzz"
line=$(tail -n1 <<<"$fuzz")
if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    REDISLOCK_EARLIER_PASSED=$((REDISLOCK_EARLIER_PASSED + BASH_REMATCH[1]))
    REDISLOCK_EARLIER_FAILED=$((REDISLOCK_EARLIER_FAILED + BASH_REMATCH[2]))
else
    REDISLOCK_EARLIER_FAILED=$((REDISLOCK_EARLIER_FAILED + 1))   # did not run
fi

# The host (Debian 12): phpt normal pass and bridge suites here, and beside
# them the valgrind pass (with servers and ports of its own: it computes, the
# normal pass mostly waits, and one after the other they took 20 minutes),
# in two halves at once, each with its servers and ports: it waits on
# sleeps and timeouts stretched for valgrind more than it computes (alone
# it was the run's longest part, 27 of 29 minutes); the normal pass's last
# line also counts the unit tests and fuzz targets above.
valgrind_halves=([0]='' [1]='')
for i in "${!host_targets[@]}"; do
    valgrind_halves[i % 2]+="${host_targets[$i]}"$'\n'
done
valgrind_pids=()
for h in 0 1; do
    mapfile -t half < <(printf '%s' "${valgrind_halves[$h]}")
    ((${#half[@]})) || continue
    REDISLOCK_EARLIER_PASSED=0 REDISLOCK_EARLIER_FAILED=0 REDISLOCK_TEST_PORT_BASE=$((25000 + h * 1000)) \
        REDISLOCK_SUITE_LABEL=bookworm-valgrind-$((h + 1)) \
        setsid ./tests/run-suite.sh --valgrind-only "${half[@]}" </dev/null >"$work/valgrind-$h.log" 2>&1 &
    valgrind_pids[h]=$!
done
# REDISLOCK_CPU_LOAD=1: the host's normal pass (and whatever runs beside
# it) runs beside a CPU load of twice the cores, started and ended here: a
# user's CI machine is often that busy, and a test that fails there without
# a wrong result is a defect (tests count events and states, not time). Run
# so once per development session; the default run leaves it out (its busy
# loops took the 2-core CI past 20 minutes; the valgrind halves and the
# platform rows beside the normal pass keep the machine busy anyway).
if [[ ${REDISLOCK_CPU_LOAD:-0} != 0 ]]; then
    load_n=$((2 * $(nproc)))
    setsid ./scripts/cpu-load.sh "$load_n" 3600 </dev/null >/dev/null 2>&1 &
    load_pid=$!
    echo "=== the host's normal pass, beside a CPU load of $load_n busy loops (twice the $(nproc) cores) ==="
else
    echo "=== the host's normal pass, without the CPU load (REDISLOCK_CPU_LOAD=1 adds it) ==="
fi
REDISLOCK_TEST_PORT_BASE=20000 REDISLOCK_SUITE_LABEL=bookworm ./tests/run-suite.sh --no-valgrind "${host_targets[@]}" \
    | tee "$work/host.log" || true
if [[ -n ${load_pid:-} ]]; then
    kill -TERM -- "-$load_pid" 2>/dev/null || true
    wait "$load_pid" 2>/dev/null || true
    load_pid=''
fi
passed=0 failed=0
line=$(tail -n1 "$work/host.log")
if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    passed=${BASH_REMATCH[1]} failed=${BASH_REMATCH[2]}
else
    failed=1
fi
# join_side_run TITLE PID LOG: waits for a run-suite started beside the
# host's, prints what a reader needs of it and adds its counts
join_side_run() {
    echo "=== $1, beside the above ==="
    wait "$2" || true
    sed 's/\x1b\[[0-9;]*m//g' "$3" | tr '\r' '\n' | sed -n '/^run-suite: normal pass only/p;
        /^run-suite: the .* pass ended without/,/^run-suite: [0-9]* skipped/p;
        /^Number of tests/,/^Time taken/p; /^\(FAIL\|WARN\|LEAK\|BORK\|SKIP\) /p;
        /^========DIFF========/,/^========DONE========/p;
        /^run-suite: tests run-tests ran twice/p; /^run-suite: note/p; /^run-suite: first attempt of /,/^run-suite: end of first attempt/p;
        /^safety-quick: /p; /^| .* | BROKEN: /p; /^[0-9]* rows, [0-9]* runs/p'
    line=$(tail -n1 "$3")
    echo "$line"
    if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
        passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2]))
    else
        failed=$((failed + 1))
    fi
}
for h in "${!valgrind_pids[@]}"; do
    join_side_run "the host's valgrind pass, half $((h + 1)) of 2" "${valgrind_pids[$h]}" "$work/valgrind-$h.log"
done
valgrind_pids=()
if [[ -n ${safety_pid:-} ]]; then
    join_side_run "the safety suite's short schedule, on the host" "$safety_pid" "$work/safety.log"
    safety_pid=''
fi
v() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null | sed 's/^[0-9]*://; s/[+~-].*//'; }
echo "bookworm|$(php -r 'echo PHP_VERSION;')|$(redis-server --version | sed -n 's/.*v=\([0-9.]*\).*/\1/p')|$(v libhiredis-dev)|$(v php-symfony-lock)|$(v php-illuminate-cache)|$(v phpunit)|$passed passed, $failed failed" \
    >"$work/rows"

if ((${#matrix_pids[@]})); then
    for i in "${!matrix_pids[@]}"; do
        wait "${matrix_pids[$i]}" || true
        cat "$work/matrix-$i.log"
        line=$(grep -E '^matrix: [0-9]+ passed, [0-9]+ failed' "$work/matrix-$i.log" | tail -n1)
        if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
            passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2]))
        else
            echo "matrix: ${matrix_groups[$i]}: ended without its counts"; failed=$((failed + 1))
        fi
        cat "$work/rows-$i" >>"$work/rows" 2>/dev/null || true
    done
    matrix_pids=()
else
    echo "matrix: not run (REDISLOCK_MATRIX=0)"
fi

took=$((SECONDS - started))
load_state="the host's normal pass beside a CPU load of twice the cores"
[[ ${REDISLOCK_CPU_LOAD:-0} != 0 ]] || load_state="without the CPU load"
caption="The run: $passed passed, $failed failed in $((took / 60)) min $((took % 60)) s on $(nproc) cores ($cache_state; $load_state)."
echo "Tested platforms (scripts/platform/readme-table.sh makes README's table of this):"
./scripts/platform/readme-table.sh "$work/rows" "${REDISLOCK_README_TABLE:+--write}" "$caption"
echo "$passed passed, $failed failed"
((failed == 0 && passed > 0))
