#!/usr/bin/env bash
# The safety suite's quick schedule, for anyone and for CI: every fault of
# the independent-node modes, on RedisLock and on RedLock (with fencing or
# without, and auto_extend off or on, in turn), one seeded run of a few
# seconds each, the table on stdout. Exits 1 when any history breaks a guarantee its
# row promises (tests/safety/history.php says which), 2 on a usage error.
#   scripts/safety-quick.sh PATH/TO/redislock.so [SEED] [SECONDS]
# A row is reproduced alone with the seed its table cell names:
#   php -d extension=PATH tests/safety/schedule.php --modes=M --faults=F \
#       --auto-extend=on|off --seeds=SEED --seconds=SECONDS
set -euo pipefail
. "$(dirname "$0")/safety-schedule.inc.sh"
safety_schedule safety-quick 2.5 --auto-extend=alternate --fencing=alternate \
    --modes=redislock,redislock+fencing,redlock,redlock+fencing -- "$@"
