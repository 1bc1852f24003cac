#!/usr/bin/env bash
# The cost of option holder_names (bench/holder_names.php), on three
# throwaway redis-servers on free loopback ports; writes
# bench/results/holder_names.txt headed by machine and versions.
#   bench/holder_names.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
dir=$(mktemp -d)
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
    rm -rf "$dir"
}
trap cleanup EXIT
cp "$root/modules/redislock.so" "$dir/redislock.so"   # a rebuild during the run must not rewrite it
servers=()
for i in 1 2 3; do
    port=$(php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);')
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" >"$dir/redis-$i.log" 2>&1 &
    pids+=($!)
    servers+=("127.0.0.1:$port")
    for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done
list=$(IFS=,; echo "${servers[*]}")
mkdir -p "$here/results"
{ php -d extension="$dir/redislock.so" "$here/header.php" "option holder_names: lock + unlock cycle, off against on" "${servers[0]}"
  echo "# command: bench/holder_names.sh (BENCH_ROUNDS=${BENCH_ROUNDS:-16}, BENCH_CYCLES=${BENCH_CYCLES:-3000})"
  php -d extension="$dir/redislock.so" "$here/holder_names.php" "$list"
} 2>&1 | tee "$here/results/holder_names.txt"
