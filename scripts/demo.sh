#!/usr/bin/env bash
# Installs what is missing, builds, starts a throwaway redis-server on a free
# loopback port, runs the README's examples against it, and stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
./scripts/build.sh

dir=$(mktemp -d)
port=$(php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" --daemonize no >"$dir/log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done

php -d extension="$PWD/modules/redislock.so" -r '
$redis = new Redis();
$redis->connect("127.0.0.1", (int)$argv[1]);

$lock = new RedisLock($redis);                 // the endpoint, auth and db of a phpredis \Redis
if ($lock->acquireLock("my_resource", 5)) {    // TTL in seconds, one try
    try {
        echo "acquired lock:my_resource, TTL ", $redis->pttl("lock:my_resource"), " ms\n";
        $other = new RedisLock("127.0.0.1:" . $argv[1]);
        echo "a second RedisLock gets it too? ", var_export($other->acquireLock("my_resource", 5), true), "\n";
    } finally {
        echo "released: ", var_export($lock->releaseLock("my_resource"), true), "\n";
    }
}
$token = (new RedisLock("127.0.0.1:" . $argv[1]))->lock("report", 10000);
echo "token-style lock(): $token (auto-released at exit)\n";
' "$port"
