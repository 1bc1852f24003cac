#!/usr/bin/env bash
# Runs every benchmark in one go against throwaway redis-servers on free
# loopback ports and writes bench/results/: a .txt (tables with ratios, headed
# by machine and versions) and a .dat per scenario, and PNG charts.
#   cycle        lock + unlock cycle, 1, 3 and 5 nodes, direct      cycle.txt
#                the same through delay proxies (BENCH_DELAYS ms)    cycle-proxy.txt
#                both in cycle.dat / cycle.png
#   handoff      release to the next holder, 1, 4, 16 waiters        handoff.txt/.dat/.png
#   fpm          php-fpm req/s, persistent or not, direct and through
#                a BENCH_FPM_DELAY ms proxy                          fpm.txt/.dat
#   fpm-tls      php-fpm req/s over TLS, persistent or a handshake per
#                request (its own certificates and TLS redis-server) fpm_tls.txt
#   kinds        plain lock, fencing, shared lock and permit cycles, 1
#                and 5 nodes, direct and through a 0.5 ms proxy       kinds.txt
#   watchdog     lock + unlock with and without auto_extend, and the
#                extends per second for 100 held locks               watchdog.txt
#   onlost       option on_lost 'throw': a deleted key to the holder's
#                exception (auto_extend), a validity's end to it
#                (timer), p50/p99                                    onlost.txt
#   cluster      lock + unlock cycle on a Redis Cluster (3 masters +
#                3 replicas, its own) against standalone, redislock
#                and userland phpredis                               cluster.txt
#                (the client's instructions per cycle, cluster against
#                standalone: cluster_instructions.sh, run on its own)
#   stampede     K = 8/32/128 requests at once for one cold cache key
#                (50 ms rebuild) under php-fpm with K workers: req/s,
#                p50/p99, rebuilds, Redis commands per request; the
#                extension, the bridges, the frameworks' polling stores
#                (stampede.sh, its own redis-server)  stampede.txt/.dat/.svg
# A separate script, not run here:
#   builds.sh OLD [NEW]  two builds of this extension against each other
#                (a refactoring's speed): cycle on 1, 3 and 5 nodes,
#                handoff with 1 and 4 waiters, NEW/OLD      builds.txt
#   server_cost.sh [CYCLES]  what a lock cycle costs the server (commandstats
#                usec, process CPU) per kind and topology, on the host's
#                Redis and the sid root's Redis and Valkey, beside the peers
#                and the floor (SET NX PX + DEL): cycles/s per core
#                                                           server_cost.txt
# Speed is compared within one run (ratios); nothing here is a pass/fail
# test. Numbers worth quoting come from a quiet machine.
# Env: BENCH_ONLY ("cycle kinds watchdog onlost handoff fpm fpm-tls cluster stampede"), BENCH_DELAYS ("0.5 2"),
#   BENCH_ROUNDS, BENCH_CYCLES, BENCH_ROUND_MS (cycle.php; BENCH_ROUNDS and
#   BENCH_CYCLES, cycles per round, also cluster.php), BENCH_HANDOFFS
#   (handoff.php), BENCH_FPM_SECONDS, BENCH_FPM_ROUNDS, BENCH_FPM_CONCURRENCY
#   (fpm.php, fpm_tls.php), BENCH_FPM_WORKERS (2-4, default: cores), BENCH_FPM_DELAY (0.5),
#   PHP_FPM (the php-fpm binary).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
ext="$root/modules/redislock.so"
[[ -f $ext ]] || "$root/scripts/build.sh"
results="$here/results"
mkdir -p "$results"
only=" ${BENCH_ONLY:-cycle kinds watchdog onlost handoff fpm fpm-tls cluster stampede} "
read -r -a delays <<<"${BENCH_DELAYS:-0.5 2}"

dir=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A copy: a rebuild during the run (make rewrites the file in place) would
# crash the processes that have it loaded, and all scenarios use one build.
cp "$ext" "$dir/redislock.so"
php -d extension="$dir/redislock.so" -r 'exit(extension_loaded("redislock") ? 0 : 1);' \
    || { echo "run.sh: $ext does not load (a build under way?)" >&2; exit 1; }
ext="$dir/redislock.so"

php_run() { php -d extension="$ext" "$@"; }
header() { php_run "$here/header.php" "$1" "${servers[0]}"; }
free_port() { php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);'; }
wait_for() { for _ in $(seq 100); do [[ -e $1 ]] && return 0; sleep 0.05; done; echo "run.sh: $1 did not appear" >&2; return 1; }

servers=()
for i in 1 2 3 4 5; do
    port=$(free_port)
    mkdir -p "$dir/redis$i"
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir/redis$i" >"$dir/redis$i/log" 2>&1 &
    pids+=($!)
    servers+=("127.0.0.1:$port")
    for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done
list() { local IFS=,; echo "$*"; }

# start_proxies DELAY SERVER...: a delay proxy in front of each; sets proxied, proxy_pids.
start_proxies() {
    local delay=$1 s n=0
    shift
    proxied=() proxy_pids=()
    for s in "$@"; do
        n=$((n + 1))
        php "$here/delay_proxy.php" "$s" "$delay" "${BENCH_PROXY_SECONDS:-3600}" "$dir/proxy$n.port" &
        proxy_pids+=($!) pids+=($!)
    done
    for ((i = 1; i <= n; i++)); do
        wait_for "$dir/proxy$i.port"
        proxied+=("127.0.0.1:$(cat "$dir/proxy$i.port")")
        rm -f "$dir/proxy$i.port"
    done
}
stop_proxies() { kill "${proxy_pids[@]}" 2>/dev/null || true; wait "${proxy_pids[@]}" 2>/dev/null || true; }

if [[ $only == *" cycle "* ]]; then
    rm -f "$results/cycle.dat"
    { header "lock + unlock cycle, direct (loopback)"
      php_run "$here/cycle.php" "$(list "${servers[@]}")" 0 "$results/cycle.dat"
    } | tee "$results/cycle.txt"
    { header "lock + unlock cycle through delay proxies (nodes on other hosts)"
      for d in "${delays[@]}"; do
          start_proxies "$d" "${servers[@]}"
          echo
          php_run "$here/cycle.php" "$(list "${proxied[@]}")" "$d" "$results/cycle.dat"
          stop_proxies
      done
    } | tee "$results/cycle-proxy.txt"
    if command -v gnuplot >/dev/null; then
        gnuplot -e "dat='$results/cycle.dat'; out='$results/cycle.png'; delays='0 ${delays[*]}'" "$here/cycle.gp"
    fi
fi

if [[ $only == *" kinds "* ]]; then
    { header "lock kinds: plain, fencing, shared, permit"
      php_run "$here/kinds.php" "$(list "${servers[@]}")" 0
      start_proxies 0.5 "${servers[@]}"
      echo
      php_run "$here/kinds.php" "$(list "${proxied[@]}")" 0.5
      stop_proxies
    } | tee "$results/kinds.txt"
fi

if [[ $only == *" watchdog "* ]]; then
    { header "auto_extend: cycle cost and the watchdog's load"
      php_run "$here/watchdog.php" "${servers[0]}" 100 3000 6
    } | tee "$results/watchdog.txt"
fi

if [[ $only == *" onlost "* ]]; then
    { header "on_lost: from a loss to the holder's exception"
      php_run "$here/onlost.php" "${servers[0]}" 300 300 100
    } | tee "$results/onlost.txt"
fi

if [[ $only == *" handoff "* ]]; then
    { header "handoff latency (release to the next holder's acquire), loopback"
      php_run "$here/handoff.php" "${servers[0]}" "$ext" "$results/handoff.dat"
    } | tee "$results/handoff.txt"
    if command -v gnuplot >/dev/null; then
        gnuplot -e "dat='$results/handoff.dat'; out='$results/handoff.png'" "$here/handoff.gp"
    fi
fi

# find_fpm: the php-fpm binary (PHP_FPM, or php-fpmX.Y / php-fpm on PATH or in sbin), or "".
find_fpm() {
    local phpver sbin
    phpver=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
    sbin="$(dirname "$(php -r 'echo PHP_BINDIR;')")/sbin" # php-fpm lives there, often not on PATH
    fpm=${PHP_FPM:-$(PATH="$PATH:$sbin" command -v "php-fpm$phpver" php-fpm | head -n1 || true)}
    [[ -n $fpm ]] || echo "run.sh: php-fpm not found (install php$phpver-fpm, or set PHP_FPM): $1 benchmark skipped" >&2
}
fpm_workers() { local cores; cores=$(nproc); echo "${BENCH_FPM_WORKERS:-$((cores < 2 ? 2 : cores > 4 ? 4 : cores))}"; }

if [[ $only == *" fpm "* ]]; then
    find_fpm fpm
    if [[ -n $fpm ]]; then
        workers=$(fpm_workers)
        "$here/fpm_pool.sh" "$fpm" "$dir/fpm" "$ext" "$workers" &
        fpm_pid=$! pids+=($!)
        wait_for "$dir/fpm/fpm.sock"
        start_proxies "${BENCH_FPM_DELAY:-0.5}" "${servers[0]}"
        { header "PHP-FPM requests per second, $workers static workers ($(basename "$fpm"))"
          BENCH_FPM_CONCURRENCY=${BENCH_FPM_CONCURRENCY:-$((2 * workers))} \
          php_run "$here/fpm.php" "unix://$dir/fpm/fpm.sock" "${servers[0]}" "$results/fpm.dat" \
              "loopback=${servers[0]}" "proxy ${BENCH_FPM_DELAY:-0.5} ms=${proxied[0]}"
        } | tee "$results/fpm.txt"
        stop_proxies
        kill "$fpm_pid" 2>/dev/null || true
        wait "$fpm_pid" 2>/dev/null || true
    fi
fi

if [[ $only == *" fpm-tls "* ]]; then
    find_fpm fpm-tls
    if [[ -n $fpm ]]; then
        workers=$(fpm_workers)
        "$here/fpm_pool.sh" "$fpm" "$dir/fpm-tls" "$ext" "$workers" &
        fpm_pid=$! pids+=($!)
        wait_for "$dir/fpm-tls/fpm.sock"
        { header "PHP-FPM requests per second over TLS, $workers static workers ($(basename "$fpm"))"
          BENCH_FPM_CONCURRENCY=${BENCH_FPM_CONCURRENCY:-$((2 * workers))} \
          php_run "$here/fpm_tls.php" "unix://$dir/fpm-tls/fpm.sock"
        } | tee "$results/fpm_tls.txt"
        kill "$fpm_pid" 2>/dev/null || true
        wait "$fpm_pid" 2>/dev/null || true
    fi
fi

if [[ $only == *" cluster "* ]]; then
    { header "lock + unlock cycle, Redis Cluster against standalone (loopback)"
      php_run "$here/cluster.php" "${BENCH_CYCLES:-2000}"
    } | tee "$results/cluster.txt"
fi

if [[ $only == *" stampede "* ]]; then
    "$here/stampede.sh"   # BENCH_STAMPEDE_* settings: stampede.php
fi

echo "results in bench/results/ (take numbers worth quoting on a quiet machine)"
