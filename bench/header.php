<?php
/*
 * The lines that head every results file: when, on what machine, and which
 * versions of PHP, Redis, hiredis and the libraries were compared.
 *   php -d extension=EXT_SO header.php TITLE HOST:PORT
 */
require __DIR__ . '/libs.php';

[, $title, $server] = $argv;
$cpuinfo = (string)@file_get_contents('/proc/cpuinfo');
$cpu = preg_match('/^model name\s*:\s*(.+)$/m', $cpuinfo, $m) ? trim($m[1]) : php_uname('p');
$cores = trim((string)@shell_exec('nproc --all 2>/dev/null')) ?: (string)preg_match_all('/^processor\s*:/m', $cpuinfo);

[$host, $port] = explode(':', $server);
$r = new Redis();
$r->connect($host, (int)$port, 1.0);
$redisVersion = $r->info('server')['redis_version'] ?? '?';

ob_start();
(new ReflectionExtension('redislock'))->info();
$hiredis = preg_match('/hiredis version[^=>]*=>\s*(\S+)/', ob_get_clean(), $m) ? $m[1] : '?';

$symfony = '-';
if (BENCH_HAVE_SYMFONY) {
    $symfony = class_exists(\Composer\InstalledVersions::class) && \Composer\InstalledVersions::isInstalled('symfony/lock')
        ? \Composer\InstalledVersions::getPrettyVersion('symfony/lock')
        : (trim((string)@shell_exec("dpkg-query -W -f '\${Version}' php-symfony-lock 2>/dev/null")) ?: '?');
}

echo "# $title, " . gmdate('Y-m-d H:i') . " UTC\n";
echo "# machine: " . php_uname('m') . ", $cores cores, $cpu; load average " . implode(' ', array_map(fn($x) => sprintf('%.2f', $x), sys_getloadavg())) . "\n";
$set = array_filter(getenv(), fn($v, $k) => str_starts_with($k, 'BENCH_'), ARRAY_FILTER_USE_BOTH);
ksort($set);
echo "# settings: " . ($set ? implode(' ', array_map(fn($k, $v) => "$k=$v", array_keys($set), $set)) : 'defaults') . "\n";
printf("# PHP %s, Redis %s, hiredis %s, redislock %s, phpredis %s, Predis %s, symfony/lock %s\n",
    PHP_VERSION, $redisVersion, $hiredis, phpversion('redislock'), phpversion('redis') ?: '-',
    BENCH_HAVE_PREDIS ? \Predis\Client::VERSION : '-', $symfony);
