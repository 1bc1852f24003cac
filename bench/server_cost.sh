#!/usr/bin/env bash
# What a lock cycle costs the server (bench/server_cost.php), on the host's
# redis-server and on the newest Redis and Valkey of the sid root
# (scripts/platform/root.sh sid; a root that is missing is left out, with a
# note), in one run: writes bench/results/server_cost.txt.
#   bench/server_cost.sh [CYCLES]      default 3000
# Needs root for the root's servers (scripts/platform/in-root.sh: chroot).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cycles=${1:-3000}
# shellcheck source=../scripts/platform/platforms.sh
. "$root/scripts/platform/platforms.sh"
servers=("redis-$(redis-server --version | sed -n 's/.*v=\([0-9]*\.[0-9]*\).*/\1/p')=host")
sid=$(root_dir sid)
if [[ -x $sid/usr/bin/redis-server && -x $sid/usr/bin/valkey-server ]]; then
    rv=$(chroot "$sid" redis-server --version | sed -n 's/.*v=\([0-9]*\.[0-9]*\).*/\1/p')
    vv=$(chroot "$sid" valkey-server --version | sed -n 's/.*v=\([0-9]*\.[0-9]*\).*/\1/p')
    servers+=("redis-$rv=root:sid:redis-server" "valkey-$vv=root:sid:valkey-server")
else
    echo "server_cost: no sid root with redis-server and valkey-server ($sid): the host's server alone" >&2
fi
[[ -f $root/modules/redislock.so ]] || "$root/scripts/build.sh" >/dev/null
tsv=$(mktemp)
trap 'rm -f "$tsv"' EXIT
php -d extension="$root/modules/redislock.so" "$here/server_cost.php" "$cycles" "${servers[@]}" >"$tsv"
mkdir -p "$here/results"
{
    echo "# server cost per lock cycle, $(date -u '+%Y-%m-%d %H:%M') UTC, $cycles cycles a scenario"
    echo "# machine: $(uname -m), $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# clients: PHP $(php -r 'echo PHP_VERSION;'), redislock $(php -d extension="$root/modules/redislock.so" -r 'echo phpversion("redislock");')," \
        "phpredis $(php -r 'echo phpversion("redis");'), symfony/lock $(dpkg-query -W -f '${Version}' php-symfony-lock 2>/dev/null || echo -)," \
        "illuminate/cache $(dpkg-query -W -f '${Version}' php-illuminate-cache 2>/dev/null || echo -)"
    echo "# servers: ${servers[*]}"
    php "$here/server_cost_table.php" <"$tsv"
} >"$here/results/server_cost.txt"
cat "$here/results/server_cost.txt"
