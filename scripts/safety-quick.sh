#!/usr/bin/env bash
# The safety suite's quick schedule, for anyone and for CI: every fault of
# the independent-node modes, on RedisLock and on RedLock (with fencing or
# without, and auto_extend off or on, in turn), one seeded run of a few
# seconds each, the table on stdout. Exits 1 when any history breaks a guarantee its
# row promises (tests/safety/history.php says which), 2 on a usage error.
#   scripts/safety-quick.sh [--mutants] PATH/TO/redislock.so [SEED] [SECONDS]
# --mutants: the check a mutant must not survive (scripts/mutants.sh runs it
# in the mutant's tree): every row with and without fencing and auto_extend,
# not in turn (the watchdog's and the fencing's bugs show only in their
# rows), then the Sentinel and Cluster rows (scripts/safety-topologies.sh),
# stopping at the first broken row: one is the verdict. The unmutated tree
# runs it whole (about 15 minutes on 2 cores).
# A row is reproduced alone with the seed its table cell names:
#   php -d extension=PATH tests/safety/schedule.php --modes=M --faults=F \
#       --auto-extend=on|off --seeds=SEED --seconds=SECONDS
set -euo pipefail
mutants=0
[[ ${1:-} == --mutants ]] && { mutants=1; shift; }
ext=${1:-}
seed=${2:-7}
seconds=${3:-2.5}
[[ -n $ext && -f $ext ]] || { echo "usage: scripts/safety-quick.sh [--mutants] PATH/TO/redislock.so [SEED] [SECONDS]" >&2; exit 2; }
[[ $seed =~ ^[0-9]+$ ]] || { echo "safety-quick: SEED must be a number, not '$seed'" >&2; exit 2; }
ext=$(cd "$(dirname "$ext")" && pwd)/$(basename "$ext")
cd "$(dirname "$0")/.."
export REDISLOCK_TEST_EXT=$ext
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
status=0
turns=(--auto-extend=alternate --fencing=alternate)
((mutants)) && turns=(--auto-extend=both --fencing=both --stop-on-broken)
php -d "extension=$ext" tests/safety/schedule.php --seeds="$seed" --seconds="$seconds" "${turns[@]}" \
    --modes=redislock,redislock+fencing,redlock,redlock+fencing 2>"$runs" || status=$?
# what the runs said beside their counts (a worker's or the harness' error)
grep -v '^{' "$runs" >&2 || true
if ((mutants && status == 0)) && [[ -x scripts/safety-topologies.sh ]]; then
    scripts/safety-topologies.sh "$ext" "$seed" || status=$?
fi
exit $status
