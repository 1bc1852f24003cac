#!/usr/bin/env bash
# The release against the servers' own compare-and-delete, in one run (bench/run.sh runs it too, as
# "native"): throwaway servers on free loopback ports, then native_release.php against each, writing
# bench/results/native_release.txt (headed by machine, versions and this command).
#   bench/native_release.sh
# The servers: the host's redis-server, and where the sid platform root is there
# (scripts/platform/root.sh sid), its valkey-server (Valkey 9.1: DELIFEQ) and redis-server (Redis 8.6:
# DELEX IFEQ), run inside it on the host's loopback. BENCH_NATIVE_SERVERS="LABEL=COMMAND;..." replaces
# the list (each COMMAND takes redis-server's arguments). Env of native_release.php: BENCH_ROUNDS,
# BENCH_RELEASES, BENCH_HANDOFFS. Needs php-redis, pcntl and posix. A default run takes about 2 minutes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
results="$here/results"
mkdir -p "$results"
dir=$(mktemp -d)
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A copy of the extension: a rebuild during the run would crash the processes that have it loaded.
cp "$root/modules/redislock.so" "$dir/redislock.so"
ext="$dir/redislock.so"
php -d extension="$ext" -r 'exit(extension_loaded("redislock") && extension_loaded("redis") && function_exists("pcntl_fork") ? 0 : 1);' \
    || { echo "native_release.sh: needs $root/modules/redislock.so, php-redis and pcntl" >&2; exit 1; }

if [[ -n ${BENCH_NATIVE_SERVERS:-} ]]; then
    IFS=';' read -r -a servers <<<"$BENCH_NATIVE_SERVERS"
else
    servers=("redis-host=redis-server")
    in_root=$root/scripts/platform/in-root.sh
    if [[ -x $in_root ]] && "$in_root" sid true 2>/dev/null; then
        servers+=("valkey-sid=$in_root sid valkey-server" "redis-sid=$in_root sid redis-server")
    else
        echo "native_release.sh: no sid platform root (scripts/platform/root.sh sid): the host's redis-server only" >&2
    fi
fi

free_port() { php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);'; }
targets=()
for s in "${servers[@]}"; do
    label=${s%%=*} cmd=${s#*=}
    port=$(free_port)
    # shellcheck disable=SC2086  # the command is words
    $cmd --port "$port" --bind 127.0.0.1 --save '' --appendonly no >"$dir/$label.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do
        php -r '$s = @fsockopen("127.0.0.1", (int)$argv[1]); if (!$s) exit(1); fwrite($s, "PING\r\n"); exit(str_starts_with((string)fgets($s), "+PONG") ? 0 : 1);' "$port" && break
        sleep 0.1
    done
    targets+=("$label=127.0.0.1:$port")
done

{ php -d extension="$ext" "$here/header.php" "release: the script against the server's own compare-and-delete" "${targets[0]#*=}"
  echo "# command: bench/native_release.sh (settings above); servers: ${targets[*]%%=*}"
  php -d extension="$ext" "$here/native_release.php" "${targets[@]}"
} 2>&1 | tee "$results/native_release.txt"
