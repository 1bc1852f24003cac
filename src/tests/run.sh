#!/usr/bin/env bash
# Builds the core's unit tests without PHP, with AddressSanitizer and
# UndefinedBehaviorSanitizer, and runs them. Prints "N passed, M failed".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cflags=$(pkg-config --cflags hiredis 2>/dev/null || true)
libs="$(pkg-config --libs hiredis 2>/dev/null || echo -lhiredis) $(pkg-config --libs openssl 2>/dev/null || echo -lssl -lcrypto)"
# src/ must build without PHP: no PHP include path is given here.
build() {   # build OUTPUT SANITIZER-FLAGS...
    local output=$1
    shift
    cc -std=c11 -D_GNU_SOURCE -DRL_WATCHDOG=1 -pthread -Wall -Wextra -Wno-missing-field-initializers -Werror -g "$@" \
        $cflags -I"$(pkg-config --variable=includedir hiredis 2>/dev/null || echo /usr/include)" \
        "$here"/../base/*.c "$here"/../transport/*.c "$here"/../engine/*.c "$here"/../lock/*.c "$here"/../topology/*.c "$here"/*.c $libs \
        -o "$output"
}
build "$out/unit" -fsanitize=address,undefined -fno-sanitize-recover=all
"$out/unit" | tee "$out/asan.txt" | grep -v '^core unit tests:' || true
# The watchdog thread again under ThreadSanitizer (data races, lock order).
build "$out/unit-tsan" -fsanitize=thread
tsan=0
TSAN_OPTIONS="halt_on_error=1 exitcode=66 die_after_fork=0" "$out/unit-tsan" watchdog >"$out/tsan.txt" 2>&1 || tsan=$?
grep -v '^core unit' "$out/tsan.txt" || true
# The core built as for a thread-safe PHP (RL_THREADED: per-thread random
# pools), under ThreadSanitizer: threads drawing tokens and naming derived
# keys at once.
build "$out/unit-tsan-zts" -fsanitize=thread -DRL_THREADED=1
zts=0
TSAN_OPTIONS="halt_on_error=1 exitcode=66 die_after_fork=0" "$out/unit-tsan-zts" threads >"$out/tsan-zts.txt" 2>&1 || zts=$?
grep -v '^core unit' "$out/tsan-zts.txt" || true
read -r ap af < <(sed -n 's/^core unit tests: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p' "$out/asan.txt")
read -r tp tf < <(sed -n 's/^core unit tests: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p' "$out/tsan.txt")
read -r zp zf < <(sed -n 's/^core unit tests: \([0-9]*\) passed, \([0-9]*\) failed/\1 \2/p' "$out/tsan-zts.txt")
((tsan == 0)) || tf=$((${tf:-0} + 1))   # a race report ends the run with 66
((zts == 0)) || zf=$((${zf:-0} + 1))
echo "core unit tests (ASan+UBSan, the watchdog under TSan, the ZTS build's threads under TSan): $((${ap:-0} + ${tp:-0} + ${zp:-0})) passed, $((${af:-1} + ${tf:-1} + ${zf:-1})) failed"
