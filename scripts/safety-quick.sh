#!/usr/bin/env bash
# The safety suite's quick schedule, for anyone and for CI: every fault of
# the independent-node modes (RedisLock and RedLock, with and without
# fencing, auto_extend off and on in turn), one seeded run of a few seconds
# each, the table on stdout. Exits 1 when any history breaks a guarantee its
# row promises (tests/safety/history.php says which), 2 on a usage error.
#   scripts/safety-quick.sh PATH/TO/redislock.so [SEED] [SECONDS]
# A row is reproduced alone with the seed its table cell names:
#   php -d extension=PATH tests/safety/schedule.php --modes=M --faults=F \
#       --auto-extend=on|off --seeds=SEED --seconds=SECONDS
set -euo pipefail
ext=${1:-}
seed=${2:-7}
seconds=${3:-2.5}
[[ -n $ext && -f $ext ]] || { echo "usage: scripts/safety-quick.sh PATH/TO/redislock.so [SEED] [SECONDS]" >&2; exit 2; }
[[ $seed =~ ^[0-9]+$ ]] || { echo "safety-quick: SEED must be a number, not '$seed'" >&2; exit 2; }
ext=$(cd "$(dirname "$ext")" && pwd)/$(basename "$ext")
cd "$(dirname "$0")/.."
export REDISLOCK_TEST_EXT=$ext
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
status=0
php -d "extension=$ext" tests/safety/schedule.php --seeds="$seed" --seconds="$seconds" --auto-extend=alternate \
    --modes=redislock,redislock+fencing,redlock,redlock+fencing 2>"$runs" || status=$?
# what the runs said beside their counts (a worker's or the harness' error)
grep -v '^{' "$runs" >&2 || true
exit $status
