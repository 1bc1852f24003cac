#!/usr/bin/env bash
# The cache stampede benchmark on its own (bench/run.sh runs it too, as
# "stampede"): a throwaway redis-server on a free loopback port, then
# stampede.php (which starts a php-fpm pool of K workers per K), writing
# bench/results/stampede.txt (headed by machine, versions and this command),
# stampede.dat and the chart stampede.svg (when gnuplot is installed).
#   bench/stampede.sh
# Env: BENCH_STAMPEDE_K, _ROUNDS, _WORKERS, _VARIANTS, _REBUILD_MS, _WAIT (see
# stampede.php), PHP_FPM (the php-fpm binary), BENCH_STAMPEDE_NAME (the
# results' file name, default "stampede"). Needs redis-server, php-redis,
# php8.2-fpm, php-symfony-lock, php-illuminate-cache, php-illuminate-redis,
# gnuplot-nox for the chart. A default run takes about 2 minutes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
results="$here/results"
name=${BENCH_STAMPEDE_NAME:-stampede}
[[ $name =~ ^[A-Za-z0-9_-]+$ ]] || { echo "stampede.sh: BENCH_STAMPEDE_NAME must be a plain file name" >&2; exit 1; }
mkdir -p "$results"
dir=$(mktemp -d)
redis_pid=
cleanup() {
    local f
    for f in "$dir"/fpm-*.pid; do # pools stampede.php left running if it died
        [[ -e $f ]] && kill -QUIT "$(cat "$f")" 2>/dev/null
    done
    [[ -n $redis_pid ]] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A copy of the extension: a rebuild during the run would crash the workers that have it loaded.
cp "$root/modules/redislock.so" "$dir/redislock.so"
ext="$dir/redislock.so"
php -d extension="$ext" -r 'exit(extension_loaded("redislock") ? 0 : 1);' \
    || { echo "stampede.sh: $root/modules/redislock.so does not load (a build under way?)" >&2; exit 1; }

phpver=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
sbin="$(dirname "$(php -r 'echo PHP_BINDIR;')")/sbin"
fpm=${PHP_FPM:-$(PATH="$PATH:$sbin" command -v "php-fpm$phpver" php-fpm | head -n1 || true)}
[[ -n $fpm ]] || { echo "stampede.sh: php-fpm not found (install php$phpver-fpm, or set PHP_FPM)" >&2; exit 1; }

port=$(php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" >"$dir/redis.log" 2>&1 &
redis_pid=$!
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
server="127.0.0.1:$port"

{ php -d extension="$ext" "$here/header.php" "cache stampede under php-fpm ($(basename "$fpm"))" "$server"
  echo "# command: bench/stampede.sh (settings above)"
  php -d extension="$ext" "$here/stampede.php" "$fpm" "$ext" "$server" "$dir" "$results/$name.dat"
} 2>&1 | tee "$results/$name.txt"

if command -v gnuplot >/dev/null; then
    gnuplot -e "dat='$results/$name.dat'; out='$results/$name.svg'; rebuild=${BENCH_STAMPEDE_REBUILD_MS:-50}" "$here/stampede.gp"
fi
