#!/usr/bin/env bash
# The safety suite's long schedule: every fault x mode x auto_extend row of
# tests/safety/, once per seed; the table goes to bench/results/safety.md
# (docs/redlock.md quotes it) and every run's counts, one JSON line each, to
# bench/results/safety-runs.jsonl.
#   bench/safety.sh [SEEDS (1,2,...,N or a count)] [SECONDS] [SENTINEL_CLUSTER_SEEDS]
# Independent nodes (RedisLock, RedLock) run SECONDS a run; the Sentinel and
# Cluster modes at least 10 s (a failover takes seconds to land, and their
# set-up seconds more), with their own seeds when given (default: SEEDS).
# A run reproduces alone with its row and seed:
#   php -d extension=modules/redislock.so tests/safety/schedule.php \
#       --modes=redlock --faults=holder-pause --auto-extend=on --seeds=17 --seconds=20
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-10}
seconds=${2:-20}
slow_seeds=${3:-$seeds}
[[ $seeds =~ ^[0-9]+$ ]] && seeds=$(seq -s, 1 "$seeds")
[[ $slow_seeds =~ ^[0-9]+$ ]] && slow_seeds=$(seq -s, 1 "$slow_seeds")
slow_seconds=$(php -r 'echo max(10, (float)$argv[1]);' "$seconds")
ext=$PWD/modules/redislock.so
[[ -f $ext ]] || { echo "bench/safety.sh: build the extension first (scripts/build.sh)" >&2; exit 2; }
# the workers load a copy: a rebuild during the hour this takes must not
# change the library under running processes
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$ext" "$work/redislock.so"
export REDISLOCK_TEST_EXT=$work/redislock.so
status=0
php -d "extension=$REDISLOCK_TEST_EXT" tests/safety/schedule.php --seeds="$seeds" --seconds="$seconds" \
    --modes=redislock,redislock+fencing,redlock,redlock+fencing \
    --out="$work/nodes.md" 2>bench/results/safety-runs.jsonl || status=$?
php -d "extension=$REDISLOCK_TEST_EXT" tests/safety/schedule.php --seeds="$slow_seeds" --seconds="$slow_seconds" \
    --modes=sentinel,sentinel+min_replicas,sentinel+fencing,cluster \
    --out="$work/groups.md" 2>>bench/results/safety-runs.jsonl || status=$?
php bench/safety_table.php "$work/nodes.md" "$work/groups.md" >bench/results/safety.md
bench/safety_docs.sh
exit $status
