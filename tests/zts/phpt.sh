#!/usr/bin/env bash
# The phpt suite on a thread-safe (ZTS) PHP CLI: the ZTS PHP of
# scripts/zts-php.sh (built once, then cached), the extension built with its
# phpize in a scratch copy of the checkout, then tests/run-suite.sh there with
# that PHP first on PATH.
#
#   tests/zts/phpt.sh [--valgrind] [TEST.phpt|DIR ...]
#       (default: the tests the platform rows run, tests/*/[0-8]*.phpt and
#        tests/safety/900-*.phpt; the safety suite's short schedule runs on
#        the host; REDISLOCK_ZTS_PREFIX=DIR: where the ZTS PHP is cached)
#
# Tests that cannot apply on a ZTS CLI skip with the reason in their
# --SKIPIF-- (php-fpm: no ZTS php-fpm; phpredis: Debian's is built for the
# NTS PHP); a skip is not counted as passed. --valgrind adds run-suite's
# valgrind pass. The last line is run-suite's "N passed, M failed"; anything
# that keeps the suite from running is "0 passed, 1 failed" with the reason.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

valgrind=--no-valgrind
targets=()
for arg; do
    case $arg in
        --valgrind) valgrind=--valgrind ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) targets+=("$(realpath -- "$arg")") ;;
    esac
done

die() {
    echo "zts-phpt: $*" >&2
    echo "FAIL zts-phpt: cannot run: $*"
    echo "0 passed, 1 failed"
    exit 1
}

prefix=$("$root/scripts/zts-php.sh") || die "no ZTS PHP (scripts/zts-php.sh failed)"
[[ -x $prefix/bin/php ]] || die "$prefix has no CLI (bin/php)"
"$prefix/bin/php" -n -r 'exit(PHP_ZTS ? 0 : 1);' || die "$prefix/bin/php is not thread-safe"
echo "zts-phpt: PHP $("$prefix/bin/php" -n -r 'echo PHP_VERSION;') ZTS CLI in $prefix"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/redislock-zts-phpt.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The checkout's files (tracked and new, not ignored) in a scratch copy: an
# in-tree NTS build keeps its objects and modules/ where they are.
tree=$tmp/tree
mkdir -p "$tree"
(cd "$root" && git ls-files -z -co --exclude-standard | tar --null -cf - -T - 2>/dev/null) | tar -xf - -C "$tree"
export PATH=$prefix/bin:$PATH
(cd "$tree" && ./scripts/build.sh) >"$tmp/build.log" 2>&1 \
    || { tail -n 30 "$tmp/build.log" >&2; die "the extension did not build against the ZTS PHP"; }
grep -q '^#define ZTS 1' "$prefix/include/php/main/php_config.h" || die "$prefix is not a ZTS PHP"

# The targets, as paths inside the copy.
if ((${#targets[@]})); then
    for i in "${!targets[@]}"; do targets[i]=$tree/${targets[i]#"$root"/}; done
else
    targets=("$tree"/tests/*/[0-8]*.phpt "$tree"/tests/safety/900-*.phpt)
fi
cd "$tree"
rc=0
REDISLOCK_BRIDGES='' ./tests/run-suite.sh "$valgrind" "${targets[@]}" || rc=$?
exit "$rc"
