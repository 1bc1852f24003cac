#!/usr/bin/env bash
# lockMany() against one by one (bench/lock_many.php), on three
# throwaway redis-servers on free loopback ports; writes
# bench/results/lock_many.txt headed by machine and versions.
#   bench/lock_many.sh
set -euo pipefail
# shellcheck source=three_servers.sh
. "$(dirname "$0")/three_servers.sh"
{ php -d extension="$dir/redislock.so" "$here/header.php" "lockMany() + unlockMany() of K resources against K lock() + K unlock()" "${servers[0]}"
  echo "# command: bench/lock_many.sh (BENCH_ROUNDS=${BENCH_ROUNDS:-16}, BENCH_CYCLES=${BENCH_CYCLES:-1000})"
  php -d extension="$dir/redislock.so" "$here/lock_many.php" "$list"
} 2>&1 | tee "$here/results/lock_many.txt"
