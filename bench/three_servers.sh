# Sourced by a bench script: three throwaway redis-servers on free loopback
# ports (stopped by pid on exit), and the extension copied aside (a rebuild
# during the run must not rewrite it). Sets here, root, dir, $list (the
# servers, comma-separated) and servers[].
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
cp "$root/modules/redislock.so" "$dir/redislock.so"
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
