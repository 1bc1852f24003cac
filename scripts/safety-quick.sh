#!/usr/bin/env bash
# The safety suite's quick schedule, for anyone and for CI: every fault of
# the independent-node modes, on RedisLock and on RedLock (with fencing or
# without, and auto_extend off or on, in turn), one seeded run of a few
# seconds each, the table on stdout. Exits 1 when any history breaks a guarantee its
# row promises (tests/safety/history.php says which), 2 on a usage error.
#   scripts/safety-quick.sh [--mutants] PATH/TO/redislock.so [SEED] [SECONDS]
# --mutants: the check a mutant must not survive (scripts/mutants.sh runs it
# in the mutant's tree): the Sentinel and Cluster rows
# (scripts/safety-topologies.sh), then every independent-node row with and
# without fencing and auto_extend, not in turn (the watchdog's and the
# fencing's bugs show only in their rows), stopping at the first broken
# row: one is the verdict. The unmutated tree
# runs it whole (about 15 minutes on 2 cores).
# A row is reproduced alone with the seed its table cell names:
#   php -d extension=PATH tests/safety/schedule.php --modes=M --faults=F \
#       --auto-extend=on|off --seeds=SEED --seconds=SECONDS
set -euo pipefail
. "$(dirname "$0")/safety-schedule.inc.sh"
modes=--modes=redislock,redislock+fencing,redlock,redlock+fencing
if [[ ${1:-} != --mutants ]]; then
    safety_schedule safety-quick 2.5 --auto-extend=alternate --fencing=alternate "$modes" -- "$@"
fi
shift
status=0
# one mutant at a time on an otherwise idle machine: the queue's order is judged too
export REDISLOCK_SAFETY_JUDGE_FIFO=1
# the Sentinel and Cluster rows first (a minute, at their own length: a
# failover takes seconds), then the independent nodes' (a quarter of an hour)
"$(dirname "$0")/safety-topologies.sh" "${1:-}" "${2:-7}" || status=$?
((status != 0)) || (safety_schedule safety-quick 2.5 --auto-extend=both --fencing=both --stop-on-broken "$modes" -- "$@") \
    || status=$?
exit $status
