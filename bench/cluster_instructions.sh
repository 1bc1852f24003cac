#!/usr/bin/env bash
# The client's own cost of a lock + unlock cycle on a Redis Cluster against
# a standalone server, in instructions (callgrind counts instructions, not
# seconds: the same for the same build and inputs however busy the machine
# is, and blind to the servers that share its cores). Only what runs inside
# RedisLock::lock() and ::unlock() is counted; each side runs twice, with 0
# and with CYCLES measured cycles, and the difference is divided by CYCLES,
# so start-up and the first slot map are left out.
#   bench/cluster_instructions.sh [CYCLES]      (default 2000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cycles=${1:-2000}
ext="$root/modules/redislock.so"
[[ -f $ext ]] || "$root/scripts/build.sh"
export REDISLOCK_TEST_REDIS_SERVER=${REDISLOCK_TEST_REDIS_SERVER:-$(command -v redis-server)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() {   # count MODE N: instructions inside lock()/unlock() over N cycles (+ warm-up)
    valgrind --tool=callgrind --collect-atstart=no \
        --toggle-collect='zim_RedisLock_lock' --toggle-collect='zim_RedisLock_unlock' \
        --callgrind-out-file="$tmp/cg.out" \
        php -d "extension=$ext" "$here/cluster_cycle_worker.php" "$1" "$2" 2>"$tmp/log" >/dev/null
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log"
}

declare -A per
for mode in cluster standalone; do
    base=$(count "$mode" 0)
    full=$(count "$mode" "$cycles")
    per[$mode]=$(( (full - base) / cycles ))
done
echo "## client instructions per lock + unlock cycle (callgrind, inside lock() and unlock()), $cycles cycles"
printf '%-12s %12s\n' mode instructions
printf '%-12s %12d\n' cluster "${per[cluster]}" standalone "${per[standalone]}"
ratio=$(awk -v a="${per[cluster]}" -v b="${per[standalone]}" 'BEGIN { printf "%.3f", a / b }')
met=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.05) ? "met" : "NOT met" }')
echo "target: cluster within 5% of standalone, client instructions $ratio (want <= 1.05) $met"
