#!/usr/bin/env bash
# Writes a minimal php-fpm setup into DIR (php-fpm.conf, php.ini) and runs
# php-fpm in the foreground: one static pool of WORKERS workers on the unix
# socket DIR/fpm.sock, the extension loaded by the pool itself
# (php_admin_value[extension]), -R so that it also runs as root.
#   fpm_pool.sh PHP_FPM_BINARY DIR EXT_SO WORKERS
# The caller stops it (SIGTERM, or SIGQUIT for a graceful stop).
set -euo pipefail
fpm=$1 dir=$2 ext=$3 workers=$4
mkdir -p "$dir"

cat >"$dir/php.ini" <<INI
memory_limit = 128M
display_errors = Off
log_errors = On
error_log = $dir/php-error.log
INI

cat >"$dir/php-fpm.conf" <<CONF
[global]
error_log = $dir/fpm.log
daemonize = no

[bench]
listen = $dir/fpm.sock
listen.backlog = 511
pm = static
pm.max_children = $workers
pm.max_requests = 0
php_admin_value[extension] = $ext
catch_workers_output = yes
CONF

exec "$fpm" -R -F -y "$dir/php-fpm.conf" -c "$dir/php.ini"
