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
cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-missing-field-initializers -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=all \
    $cflags -I"$(pkg-config --variable=includedir hiredis 2>/dev/null || echo /usr/include)" \
    "$here"/../base/*.c "$here"/../transport/*.c "$here"/../lock/*.c "$here"/../topology/*.c "$here"/*.c $libs -o "$out/unit"
"$out/unit"
