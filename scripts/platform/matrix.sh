#!/usr/bin/env bash
# The platform matrix: the extension built and tested on newer PHP, servers
# and frameworks than the host's, each in a Debian root (root.sh).
#
#   scripts/platform/matrix.sh [ROW ...]      default: every row
#
# Rows (root, PHP, server: what runs):
#   trixie-redis   Debian 13, PHP 8.4, Redis 8.0: phpt normal pass*, bridge suites (Symfony 6.4, Laravel 10)
#   trixie-valkey  Debian 13, PHP 8.4, Valkey 8.1: phpt normal pass with the safety suite's
#                  short schedule (Sentinel and Cluster on Valkey, under faults)
#   sid-redis      sid, PHP 8.5, Redis 8.6: phpt normal pass*, bridge suites (Symfony 7.4, Laravel 13)
#   sid-valkey     sid, PHP 8.5, Valkey 9.1: phpt normal pass*
#   sid-symfony81  sid, PHP 8.5: the Symfony bridge suite on Symfony 8.1 (experimental)
#   sid-php86      sid, PHP 8.6-dev: built with -Wall -Wextra and no warning, loads, the 0xx phpt tests (tests/*/0*)
#   zts            the host, a thread-safe PHP with the embed SAPI and a CLI (built once, cached):
#                  tests/zts/run.sh, PHP threads running requests as FrankenPHP does, then
#                  the phpt normal pass* on the ZTS CLI (php-fpm and phpredis tests skip)
# * without the safety suite's short schedule (tests 901-913: about 4 minutes
#   a row), which runs on the host and in trixie-valkey: CI's whole run must
#   stay under 20 minutes on 2 cores (about 16 today; CI allows 45). Its checker's own
#   test (900) runs.
#
# Each row prints run-tests' summary and a line "ROW: N passed, M failed";
# the last line adds them up. A row whose root cannot be made (mirror down)
# or whose build fails is a failure with its reason, never a skip.
# $REDISLOCK_MATRIX_TABLE=FILE gets a line per row that ran:
# "row|PHP|server|hiredis|Symfony|Laravel|PHPUnit|N passed, M failed", the
# versions as installed (scripts/platform/readme-table.sh makes README's table).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck source=platforms.sh
. "$here/platforms.sh"

all_rows=(trixie-redis trixie-valkey sid-redis sid-valkey sid-symfony81 sid-php86 zts)
rows=("$@")
((${#rows[@]})) || rows=("${all_rows[@]}")

# REDISLOCK_MATRIX_LOGS=DIR keeps every row's whole log there.
logs=${REDISLOCK_MATRIX_LOGS:-}
# Each run builds in a directory of its own in a root (/srv/redislock-PHP-PID,
# removed at exit): two runs at once (two checkouts) never build over each other.
builds=()
cleanup() {
    local d
    for d in "${builds[@]}"; do rm -rf "$d"; done
    if [[ -z ${REDISLOCK_MATRIX_LOGS:-} ]]; then rm -rf "$logs"; fi
}
trap cleanup EXIT
if [[ -z $logs ]]; then
    logs=$(mktemp -d "${TMPDIR:-/tmp}/redislock-matrix.XXXXXX")
fi
mkdir -p "$logs"
passed=0 failed=0
table=()

row_root() { echo "${1%%-*}"; }
row_php() {
    case $1 in
        trixie-*) echo 8.4 ;;
        sid-php86) echo 8.6 ;;
        sid-*) echo 8.5 ;;
    esac
}

# This run's build directory in a root, for PHP $1: /srv/redislock-PHP-PID.
srv_dir() { echo "/srv/redislock-$1-$$"; }

# Copies the checkout (tracked files and new ones not ignored) into the root
# and builds it there against PHP $2: ROOT$(srv_dir PHP).
build_in_root() {   # build_in_root ROOT PHP CFLAGS LOG
    local root=$1 php=$2 cflags=$3 log=$4 dir
    dir=$(root_dir "$root")$(srv_dir "$php")
    rm -rf "$dir" && mkdir -p "$dir"
    builds+=("$dir")
    (cd "$top" && git ls-files -z -co --exclude-standard | tar --null -cf - -T - 2>/dev/null) | tar -xf - -C "$dir"
    # php, phpize and php-config of this version first on PATH
    mkdir -p "$dir/.bin"
    local t
    for t in php phpize php-config php-fpm; do
        if [[ $t == php-fpm ]]; then
            ln -sf "/usr/sbin/php-fpm$php" "$dir/.bin/$t"
        else
            ln -sf "/usr/bin/$t$php" "$dir/.bin/$t"
        fi
    done
    "$here/in-root.sh" "$root" env PATH="$(srv_dir "$php")/.bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        CFLAGS="$cflags" sh -c 'cd "$1" && ./scripts/build.sh' sh "$(srv_dir "$php")" >"$log" 2>&1
}

# Runs tests/run-suite.sh in the root; the rest of the arguments go to it
# (test files or globs such as tests/*/0*.phpt, expanded in the root).
suite_in_root() {   # suite_in_root ROOT PHP LOG ENV... -- ARGS...
    local root=$1 php=$2 log=$3 envs=()
    shift 3
    while (($#)) && [[ $1 != -- ]]; do envs+=("$1"); shift; done
    shift
    "$here/in-root.sh" "$root" env PATH="$(srv_dir "$php")/.bin:/usr/sbin:/usr/bin:/sbin:/bin" \
        REDISLOCK_VALGRIND=0 REDISLOCK_TEST_PORT_BASE="${REDISLOCK_TEST_PORT_BASE:-}" "${envs[@]}" \
        sh -c 'cd "$1" && shift && exec ./tests/run-suite.sh --no-valgrind $*' sh "$(srv_dir "$php")" "$@" \
        >"$log" 2>&1
}

# What a run printed that a reader needs: run-tests' summary, failed tests and
# the bridge suites' lines.
summary_of() {   # summary_of LOG
    sed -n '/^Number of tests/,/^Time taken/p' "$1"
    # run-tests -q colours its verdicts: the tests that did not pass, and why
    sed 's/\x1b\[[0-9;]*m//g' "$1" | tr '\r' '\n' | grep -E '^(FAIL|WARN|LEAK|BORK|SKIP) ' | cut -c1-300 || true
    grep -E '^run-suite: bridge |^run-suite: .*not run' "$1" || true
    # what a failed test printed against what it expected (run-tests
    # --show-diff), kept short: the row's log stays in the root's temp dir
    sed 's/\x1b\[[0-9;]*m//g' "$1" | tr '\r' '\n' | sed -n '/^========DIFF========/,/^========DONE========/p' | head -n 80 || true
    # what a test printed the first time, when only run-tests' retry passed
    sed -n '/^run-suite: first attempt of /,/^run-suite: end of first attempt/p' "$1" | head -n 80 || true
    # what tests noted beside their output (a demonstration run again)
    grep -E '^run-suite: note' "$1" | head -n 40 || true
}

# Adds a row's counts from its last "N passed, M failed" line; no such line
# (it did not get that far) is one failure.
tally() {   # tally ROW LOG
    local line p=0 f=1
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$2" | tail -n1)
    if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
        p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
    fi
    ((p + f)) || f=1   # ran no test
    passed=$((passed + p)) failed=$((failed + f))
    row_counts="$p passed, $f failed"
    echo "$1: $row_counts"
}

fail_row() {   # fail_row ROW REASON [LOG]
    echo "matrix: $1 failed: $2"
    [[ -n ${3:-} && -f $3 ]] && tail -n 40 "$3"
    failed=$((failed + 1))
    echo "$1: 0 passed, 1 failed"
}

# SYMFONY_DIR: where another Symfony is unpacked (its version from its changelog, not dpkg's)
versions_of() {   # versions_of ROOT PHP SERVER [SYMFONY_DIR]: "php|server|hiredis|symfony|laravel|phpunit"
    "$here/in-root.sh" "$1" sh -c '
        v() { dpkg-query -W -f="\${Version}" "$1" 2>/dev/null | sed "s/^[0-9]*://; s/[+~-].*//"; }
        php=$(php$1 -r "echo PHP_VERSION;")
        server=$($2 --version | sed -n "s/.*v=\([0-9.]*\).*/\1/p")
        symfony=$(v php-symfony-lock)
        [ -n "$3" ] && symfony=$(zcat "$3/usr/share/doc/php-symfony-lock/changelog.Debian.gz" | sed -n "1s/^[^(]*(\([0-9.]*\).*/\1/p")
        echo "$php|$server|$(v libhiredis-dev)|$symfony|$(v php-illuminate-cache)|$(v phpunit)"
    ' sh "$2" "$3" "${4:-}"
}

built=()
ensure_built() {   # ensure_built ROOT PHP [CFLAGS]: once per run
    local key="$1-$2" b
    for b in "${built[@]}"; do [[ $b == "$key" ]] && return 0; done
    local log=$logs/build-$key.log
    echo "matrix: building for PHP $2 in $1"
    if ! build_in_root "$1" "$2" "${3:-}" "$log"; then
        cat "$log"
        return 1
    fi
    grep -E 'warning:' "$log" || true
    built+=("$key")
}

declare -A root_ok=()
ensure_root() {   # ensure_root ROOT: make or update it once per run
    [[ -n ${root_ok[$1]:-} ]] && return "${root_ok[$1]}"
    local log=$logs/root-$1.log start=$SECONDS
    if "$here/root.sh" "$1" >"$log" 2>&1; then
        root_ok[$1]=0
        echo "matrix: root $1 ready ($((SECONDS - start)) s)"
    else
        root_ok[$1]=1
        cat "$log"
    fi
    return "${root_ok[$1]}"
}

# The thread-safe row runs on the host: tests/zts/run.sh builds (or finds
# cached) the ZTS PHP, builds the extension and the threaded host against it
# outside the checkout, runs its scenarios and the phpt suite on the ZTS CLI,
# and prints "N passed, M failed".
run_zts_row() {
    local log=$logs/zts.log start=$SECONDS php
    echo "matrix: === zts ==="
    "$top/tests/zts/run.sh" >"$log" 2>&1
    # the scenarios' verdicts (their failures are in summary_of's), then the phpt suite's
    grep -E '^(PASS |zts)' "$log" || true
    summary_of "$log"
    tally zts "$log"
    echo "matrix: zts took $((SECONDS - start)) s"
    php=$(sed -n 's/^zts: PHP \([^ ]*\).*/\1/p' "$log" | tail -n1)
    table+=("zts|${php:-?} ZTS|$(redis-server --version | sed -n 's/.*v=\([0-9.]*\).*/\1/p')|$(dpkg-query -W -f='${Version}' libhiredis-dev 2>/dev/null | sed 's/^[0-9]*://; s/[+~-].*//')||||$row_counts")
}

run_row() {   # run_row ROW
    local row=$1 root php log=$logs/$1.log server envs=() args=() start=$SECONDS
    root=$(row_root "$row") php=$(row_php "$row")
    echo "matrix: === $row ==="
    ensure_root "$root" || { fail_row "$row" "root $root could not be made (see above)"; return; }
    case $row in
        sid-php86)
            # a dev PHP: the build must be warning-free with -Wall -Wextra
            local blog=$logs/build-$root-$php.log
            if ! ensure_built "$root" "$php" "-O2 -Wall -Wextra"; then
                fail_row "$row" "build failed"; return
            fi
            if grep -q 'warning:' "$blog"; then
                fail_row "$row" "warnings with -Wall -Wextra (above)"; return
            fi
            suite_in_root "$root" "$php" "$log" REDISLOCK_BRIDGES= -- 'tests/*/0*.phpt' ;;
        *)
            ensure_built "$root" "$php" || { fail_row "$row" "build failed"; return; }
            case $row in
                *-valkey)
                    envs=(REDISLOCK_TEST_REDIS_SERVER=/usr/bin/valkey-server
                          REDISLOCK_TEST_REDIS_CLI=/usr/bin/valkey-cli
                          REDISLOCK_TEST_REDIS_SENTINEL=/usr/bin/valkey-sentinel
                          REDISLOCK_BRIDGES=) ;;
                sid-symfony81)
                    envs=(REDISLOCK_BRIDGES=symfony
                          REDISLOCK_BRIDGE_INCLUDE_PATH=/opt/symfony-8.1/usr/share/php)
                    args=(--no-phpt) ;;
            esac
            # the safety suite's short schedule in one row (see the top)
            [[ $row == trixie-redis || $row == sid-redis || $row == sid-valkey ]] \
                && args=('tests/*/[0-8]*.phpt' 'tests/safety/900-*.phpt')
            suite_in_root "$root" "$php" "$log" "${envs[@]}" -- "${args[@]}" ;;
    esac
    summary_of "$log"
    tally "$row" "$log"
    echo "matrix: $row took $((SECONDS - start)) s"
    server=/usr/bin/redis-server
    [[ $row == *-valkey ]] && server=/usr/bin/valkey-server
    local symfony_dir=
    [[ $row == sid-symfony81 ]] && symfony_dir=/opt/symfony-8.1
    table+=("$row|$(versions_of "$root" "$php" "$server" "$symfony_dir" 2>/dev/null)|$row_counts")
}

for row in "${rows[@]}"; do
    case " ${all_rows[*]} " in
        *" $row "*) if [[ $row == zts ]]; then run_zts_row; else run_row "$row"; fi ;;
        *) fail_row "$row" "no such row (rows: ${all_rows[*]})" ;;
    esac
done

if [[ -n ${REDISLOCK_MATRIX_TABLE:-} ]]; then
    printf '%s\n' "${table[@]}" >"$REDISLOCK_MATRIX_TABLE"
fi
echo "matrix: $passed passed, $failed failed"
((failed == 0))
