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

exec ./tests/run-suite.sh "$@"
