#!/usr/bin/env bash
# Issue 34's rows: the safety suite's faults that lose a lock under its
# holder, without fencing, run with and without on_lost 'throw' in one run
# (same seeds, no reruns), and why each stale write that got through did.
#   bench/onlost_safety.sh [SEEDS (1,2,...,N or a count)] [SECONDS]
# Writes bench/results/onlost_safety.md: per row the sections and the
# stale writes accepted (overlaps: another holder's store operations began
# inside this one's), then each remaining one of the on_lost rows as
# tests/safety/overlaps.php reads it from the kept history.
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-3}
seconds=${2:-4}
[[ $seeds =~ ^[0-9]+$ ]] && seeds=$(seq -s, 1 "$seeds")
ext=$PWD/modules/redislock.so
[[ -f $ext ]] || { echo "bench/onlost_safety.sh: build the extension first (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$ext" "$work/redislock.so"
export REDISLOCK_TEST_EXT=$work/redislock.so
started=$(date -u '+%Y-%m-%d %H:%M UTC')
for ol in none throw; do
    extra=()
    [[ $ol == throw ]] && extra=(--on-lost=throw)
    for mf in redislock:holder-pause,server-restart-empty,clock-jump redlock:holder-pause,clock-jump \
              sentinel:sentinel-failover; do
        REDISLOCK_SAFETY_KEEP=$work/keep/$ol php -d "extension=$REDISLOCK_TEST_EXT" tests/safety/schedule.php \
            --modes="${mf%%:*}" --faults="${mf#*:}" --seeds="$seeds" --seconds="$seconds" --retries=0 \
            --auto-extend=both "${extra[@]}" --out="$work/$ol-${mf%%:*}.md" 2>>"$work/$ol.jsonl" >/dev/null \
            || { echo "bench/onlost_safety.sh: a row broke ($ol ${mf%%:*}): $work/$ol-${mf%%:*}.md" >&2; exit 1; }
    done
done
out=bench/results/onlost_safety.md
{
    echo "# on_lost in the safety suite: stale writes with and without it, $started"
    echo
    echo "Seeds $seeds, $seconds s a run, 4 workers, no fencing, no reruns;"
    echo "PHP $(php -r 'echo PHP_VERSION;'), Redis $(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/'), redislock" \
         "$(php -d "extension=$REDISLOCK_TEST_EXT" -r 'echo phpversion("redislock");'), $(nproc) cores."
    echo "Stale writes: store writes of a holder that another holder's began inside (the checker's"
    echo "overlaps; each one a lost update or worse). The workers' on_lost is a callable that throws"
    echo "RedisLockLostException during a section's work and holds a loss told during a store call"
    echo "back to the next look before a write (a store reply or history record is never cut in half)."
    echo
    php bench/onlost_safety_table.php "$work/none.jsonl" "$work/throw.jsonl"
    echo
    echo "## Why each stale write with on_lost got through"
    echo
    echo '```'
    php tests/safety/overlaps.php "$work"/keep/throw/* || true
    echo '```'
} >"$out"
cat "$out"
