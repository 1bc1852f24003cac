#!/usr/bin/env bash
# The safety suite's long schedule: every fault x mode x auto_extend row of
# tests/safety/, once per seed, each run SECONDS long; the table goes to
# bench/results/safety.md (README and docs/DESIGN.md quote it) and every
# run's counts, one JSON line each, to bench/results/safety-runs.jsonl.
#   bench/safety.sh [SEEDS (1,2,...,N or a count)] [SECONDS]
# A run reproduces alone with its row and seed:
#   php -d extension=modules/redislock.so tests/safety/schedule.php \
#       --modes=redlock --faults=holder-pause --seeds=17 --seconds=20
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10}
seconds=${2:-20}
[[ $seeds =~ ^[0-9]+$ ]] && seeds=$(seq -s, 1 "$seeds")
ext=$PWD/modules/redislock.so
[[ -f $ext ]] || { echo "bench/safety.sh: build the extension first (scripts/build.sh)" >&2; exit 2; }
export REDISLOCK_TEST_EXT=$ext
status=0
php -d "extension=$ext" tests/safety/schedule.php --seeds="$seeds" --seconds="$seconds" \
    --out=bench/results/safety.md 2>bench/results/safety-runs.jsonl || status=$?
# README quotes the table between its safety markers
php -r '
    $readme = file_get_contents("README.md");
    $table = rtrim(file_get_contents("bench/results/safety.md"));
    $new = preg_replace_callback("~(<!-- safety: bench/results/safety.md -->\n).*?(<!-- /safety -->)~s",
        fn($m) => $m[1] . $table . "\n" . $m[2], $readme, 1);
    file_put_contents("README.md", $new);'
exit $status
