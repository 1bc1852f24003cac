#!/usr/bin/env bash
# Build modules/redislock.so: phpize && ./configure && make.
# Reconfigures only when configure is missing or config.m4 changed since.
# Output is kept quiet; on failure the captured log is shown.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

run() {
    if ! "$@" >"$log" 2>&1; then
        cat "$log" >&2
        echo "build: '$*' failed" >&2
        exit 1
    fi
}

[[ -f config.m4 ]] || { echo "build: no config.m4 in $(pwd)" >&2; exit 1; }

if [[ ! -x configure || config.m4 -nt configure ]]; then
    echo "build: phpize"
    run phpize
    rm -f config.status  # force ./configure below
fi

# phpize copies gen_stub.php into build/; if make ever regenerates an arginfo
# header, gen_stub.php must find PHP-Parser offline instead of downloading it.
if [[ -f build/gen_stub.php ]]; then
    "$here/gen-arginfo.sh" --link-parser build
fi

if [[ ! -f config.status || ! -f Makefile || configure -nt config.status ]]; then
    echo "build: configure"
    run ./configure
fi

echo "build: make"
# A source file renamed or removed since the last build leaves stale
# dependency files behind: then start from clean objects once.
if ! make -j2 >"$log" 2>&1; then
    if grep -q "No rule to make target" "$log"; then
        echo "build: stale dependencies, make clean"
        make clean >/dev/null 2>&1 || true
    fi
    run make -j2
fi
# make prints compiler warnings to stderr even on success: show them.
grep -iE 'warning:|error:' "$log" >&2 || true

[[ -f modules/redislock.so ]] || { echo "build: modules/redislock.so not produced" >&2; exit 1; }
echo "build: modules/redislock.so ok"
