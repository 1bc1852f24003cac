#!/usr/bin/env bash
# The cost of option holder_names (bench/holder_names.php), on three
# throwaway redis-servers on free loopback ports; writes
# bench/results/holder_names.txt headed by machine and versions.
#   bench/holder_names.sh
set -euo pipefail
# shellcheck source=three_servers.sh
. "$(dirname "$0")/three_servers.sh"
{ php -d extension="$dir/redislock.so" "$here/header.php" "option holder_names: lock + unlock cycle, off against on" "${servers[0]}"
  echo "# command: bench/holder_names.sh (BENCH_ROUNDS=${BENCH_ROUNDS:-16}, BENCH_CYCLES=${BENCH_CYCLES:-3000})"
  php -d extension="$dir/redislock.so" "$here/holder_names.php" "$list"
} 2>&1 | tee "$here/results/holder_names.txt"
