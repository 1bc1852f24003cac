#!/usr/bin/env bash
# The whole test suite from a fresh machine: dependencies, a clean build,
# the generated files checked, then every test (normal pass + valgrind pass).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

./scripts/deps.sh

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
./scripts/package-xml.sh --check
php scripts/check-composer.php   # PIE's composer.json against the build
# the PECL tarball builds from package.xml (every listed file exists)
pkgdir=$(mktemp -d)
(cd "$pkgdir" && pecl package "$OLDPWD/package.xml" >/dev/null) || { echo "pecl package failed" >&2; exit 1; }
rm -rf "$pkgdir"

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

exec ./tests/run-suite.sh "$@"
