#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, no PHP) and runs each
# for SECONDS (default 60) on a temporary copy of its committed corpus, so
# the repository is never written to.
#
#   fuzz/run.sh [SECONDS]
#
# One line per target, then "fuzz targets: N passed, M failed". A target
# passes when its run found nothing. A finding's input is kept in
# $REDISLOCK_FUZZ_ARTIFACTS (default: a redislock-fuzz-* directory in
# $TMPDIR) and its report is printed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
secs=${1:-60}
[[ $secs =~ ^[0-9]+$ ]] || { echo "usage: fuzz/run.sh [seconds]" >&2; exit 2; }

targets=(endpoint reply keys)
passed=0 failed=0

cc=
for c in ${CC_FUZZ:-} clang clang-14; do
    command -v "$c" >/dev/null 2>&1 && { cc=$c; break; }
done
if [[ -z $cc ]]; then
    echo "fuzz: clang not found (scripts/deps.sh installs it)"
    echo "fuzz targets: 0 passed, ${#targets[@]} failed"
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/redislock-fuzz-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
artifacts=${REDISLOCK_FUZZ_ARTIFACTS:-}

hiredis_cflags=$(pkg-config --cflags hiredis 2>/dev/null || true)
hiredis_inc=$(pkg-config --variable=includedir hiredis 2>/dev/null || echo /usr/include)
hiredis_libs=$(pkg-config --libs hiredis 2>/dev/null || echo -lhiredis)
hiredis_libs="$hiredis_libs $(pkg-config --libs openssl 2>/dev/null || echo -lssl -lcrypto)"  # src/transport/rl_tls.c

for t in "${targets[@]}"; do
    bin=$work/fuzz_$t log=$work/$t.log
    # shellcheck disable=SC2086
    if ! "$cc" -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra -Wno-missing-field-initializers \
            -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
            $hiredis_cflags -I"$hiredis_inc" "$here/fuzz_$t.c" "$root"/src/base/*.c "$root"/src/transport/*.c "$root"/src/engine/*.c "$root"/src/lock/*.c "$root"/src/topology/*.c $hiredis_libs \
            -o "$bin" >"$log" 2>&1; then
        cat "$log"
        echo "fuzz_$t: FAILED to build"
        failed=$((failed + 1))
        continue
    fi
    corpus=$work/corpus_$t
    mkdir -p "$corpus" "$work/art_$t"
    cp -R "$here/corpus/$t/." "$corpus/" 2>/dev/null || true
    dict=()
    [[ -f $here/$t.dict ]] && dict=(-dict="$here/$t.dict")
    # -malloc_limit_mb: no single allocation may be big (hiredis believing a header would be)
    "$bin" "${dict[@]}" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=64 -max_len=70000 \
        -print_final_stats=1 -artifact_prefix="$work/art_$t/" "$corpus" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\)/\1/p' "$log" | tail -n1)
    if ((rc == 0)); then
        echo "fuzz_$t: passed (${execs:-?} runs in ${secs} s, corpus $(ls "$corpus" | wc -l) inputs)"
        passed=$((passed + 1))
    else
        keep=${artifacts:-$(mktemp -d "${TMPDIR:-/tmp}/redislock-fuzz-XXXXXX")}
        mkdir -p "$keep"
        cp "$work/art_$t/"* "$keep/" 2>/dev/null || true
        grep -E -A30 'ERROR: |runtime error|violated:|deadly signal' "$log" | head -n 60
        echo "fuzz_$t: FAILED (exit $rc after ${execs:-?} runs; inputs kept in $keep)"
        failed=$((failed + 1))
    fi
done
echo "fuzz targets: $passed passed, $failed failed"
((failed == 0))
