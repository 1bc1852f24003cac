#!/usr/bin/env bash
# Runs the benchmarks against throwaway redis-servers on free loopback ports
# and writes the results to bench/results/. Speed is compared within one run
# (ratios); nothing here is a pass/fail test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
ext="$root/modules/redislock.so"
[[ -f $ext ]] || "$root/scripts/build.sh"
mkdir -p "$here/results"

dir=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT INT TERM

free_port() { php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);'; }
servers=()
for i in 1 2 3 4 5; do
    port=$(free_port)
    mkdir -p "$dir/$i"
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir/$i" >"$dir/$i/log" 2>&1 &
    pids+=($!)
    servers+=("127.0.0.1:$port")
    for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done
list=$(IFS=,; echo "${servers[*]}")

php_run() { php -d extension="$ext" "$@"; }

{
    echo "# lock + unlock cycle, loopback, $(date -u +%F)"
    echo "# $(uname -m), $(nproc) cores, PHP $(php -r 'echo PHP_VERSION;'), $(redis-server --version | cut -d' ' -f3)"
    php_run "$here/cycle.php" "$list" "${BENCH_CYCLES:-2000}" "${BENCH_ROUNDS:-7}"
} | tee "$here/results/cycle.txt"

{
    echo "# handoff latency (release to the next holder's acquire), loopback, $(date -u +%F)"
    php_run "$here/handoff.php" "${servers[0]}" "$ext"
} | tee "$here/results/handoff.txt"
