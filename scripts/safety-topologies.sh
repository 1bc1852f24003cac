#!/usr/bin/env bash
# The safety suite's Sentinel and Cluster rows, short: the faults that move
# the lock to another node or name the wrong one (a Sentinel failover, a
# sentinel that names a replica, a Cluster failover, a slot migration, and
# the server's atomic slot migration where it has one), one
# seeded run of some seconds each, the table on stdout as
# scripts/safety-quick.sh prints it for the independent nodes. A Sentinel
# group or a Cluster takes seconds to start, a failover seconds to settle:
# about a minute on 2 cores. Exits 1 when any history breaks a guarantee its
# row promises (tests/safety/history.php says which), 2 on a usage error.
#   scripts/safety-topologies.sh PATH/TO/redislock.so [SEED] [SECONDS]
# The mutants' check for the Sentinel and Cluster code:
#   scripts/mutants.sh --check 'scripts/safety-topologies.sh {so}' --only 19,20,21,22
# A row is reproduced alone with the seed its table cell names:
#   php -d extension=PATH tests/safety/schedule.php --modes=M --faults=F \
#       --auto-extend=off --retries=0 --seeds=SEED --seconds=SECONDS
set -euo pipefail
. "$(dirname "$0")/safety-schedule.inc.sh"
# --retries=0: a row predicted to lose a lock that did not lose one is not
# run again (this schedule looks for broken rows; the long one shows breaks)
faults=sentinel-failover,sentinel-stale,cluster-failover,slot-migration
# the server's atomic slot migration (Redis 8.4+, Valkey 9.0+) where the
# servers the suite starts have it: REDISLOCK_TEST_REDIS_SERVER, else redis-server
server=${REDISLOCK_TEST_REDIS_SERVER:-redis-server}
version=$("$server" --version 2>/dev/null | head -n1 || true)
atomic=0
if [[ $version =~ ^Redis\ server\ v=([0-9]+)\.([0-9]+) ]]; then
    ((BASH_REMATCH[1] * 100 + BASH_REMATCH[2] >= 804)) && atomic=1
elif [[ $version =~ ^Valkey\ server\ v=([0-9]+)\. ]]; then
    ((BASH_REMATCH[1] >= 9)) && atomic=1
fi
if ((atomic)); then
    faults+=,atomic-slot-migration
else
    echo "safety-topologies: atomic-slot-migration not run: $server has no atomic slot migration (${version%% sha=*})" >&2
fi
safety_schedule safety-topologies 10 --auto-extend=off --retries=0 --modes=sentinel,cluster \
    --faults="$faults" -- "$@"
