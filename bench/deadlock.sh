#!/usr/bin/env bash
# How soon a deadlock is told (bench/deadlock.php), on three throwaway
# redis-servers on free loopback ports; writes bench/results/deadlock.txt
# headed by machine and versions.
#   bench/deadlock.sh
set -euo pipefail
# shellcheck source=three_servers.sh
. "$(dirname "$0")/three_servers.sh"
{ php -d extension="$dir/redislock.so" "$here/header.php" "deadlock detection: from the closing wait's start to its exception" "${servers[0]}"
  echo "# command: bench/deadlock.sh (BENCH_CYCLES=${BENCH_CYCLES:-50})"
  php -d extension="$dir/redislock.so" "$here/deadlock.php" "$list"
} 2>&1 | tee "$here/results/deadlock.txt"
