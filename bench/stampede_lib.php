<?php
/*
 * The stampede benchmark's tools (bench/stampede.php): a php-fpm pool per K
 * (fpm_pool.sh), K FastCGI requests sent together (fcgi_load.php's encoder
 * and decoder), INFO commandstats and MONITOR counts, quantiles.
 */
require_once __DIR__ . '/fcgi_load.php'; // fcgi_encode(), fcgi_decode()

/** Starts php-fpm (fpm_pool.sh) with $workers workers in $dir; [process, socket address, pid file]. */
function pool_start(string $fpm, string $dir, string $ext, int $workers): array
{
    $proc = proc_open(['bash', __DIR__ . '/fpm_pool.sh', $fpm, $dir, $ext, (string)$workers],
        [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$dir.out", 'w'], 2 => ['file', "$dir.out", 'a']], $pipes);
    file_put_contents("$dir.pid", proc_get_status($proc)['pid']); // for a runner's cleanup if we die (fpm_pool.sh execs php-fpm)
    for ($i = 0; $i < 200 && !file_exists("$dir/fpm.sock"); $i++) {
        usleep(50000);
    }
    if (!file_exists("$dir/fpm.sock")) {
        throw new RuntimeException("php-fpm did not start: " . @file_get_contents("$dir.out") . @file_get_contents("$dir/fpm.log"));
    }
    return [$proc, "unix://$dir/fpm.sock", "$dir.pid"];
}

function pool_stop(array $pool): void
{
    proc_terminate($pool[0], 3); // SIGQUIT: a graceful stop
    proc_close($pool[0]);
    unlink($pool[2]);
}

/** The FastCGI request for stampede_request.php with $query. */
function request_for(array $query): string
{
    $qs = http_build_query($query);
    return fcgi_encode([
        'GATEWAY_INTERFACE' => 'CGI/1.1', 'SERVER_PROTOCOL' => 'HTTP/1.1', 'REQUEST_METHOD' => 'GET',
        'SCRIPT_FILENAME' => __DIR__ . '/stampede_request.php', 'SCRIPT_NAME' => '/stampede_request.php',
        'QUERY_STRING' => $qs, 'REQUEST_URI' => "/stampede_request.php?$qs",
        'SERVER_NAME' => 'localhost', 'SERVER_PORT' => '80', 'REMOTE_ADDR' => '127.0.0.1', 'CONTENT_LENGTH' => '0',
    ]);
}

/**
 * One round: K connections opened, then the K requests written back to back;
 * returns the wall time (first write to last reply), and per request its
 * latency in ms and its body (null when it failed to answer).
 */
function fire(string $socket, string $request, int $k, float $timeout): array
{
    $conns = [];
    for ($i = 0; $i < $k; $i++) {
        $conns[$i] = @stream_socket_client($socket, $errno, $errstr, 5.0)
            ?: throw new RuntimeException("connect $socket: $errstr");
    }
    $start = hrtime(true);
    $sent = $buf = $done = [];
    foreach ($conns as $i => $s) {
        fwrite($s, $request);
        $sent[$i] = hrtime(true);
        $buf[$i] = '';
        stream_set_blocking($s, false);
    }
    $deadline = $start + (int)($timeout * 1e9);
    while ($conns && hrtime(true) < $deadline) {
        $read = $conns;
        $write = $except = null;
        if (!stream_select($read, $write, $except, 1)) {
            continue;
        }
        // a reply complete now was there when select returned: timed then,
        // not after this loop read the ones before it (127 replies at once
        // would otherwise count this client's own work as their latency)
        $ready = hrtime(true);
        foreach ($read as $i => $s) {
            $buf[$i] .= (string)fread($s, 65536);
            $stdout = fcgi_decode($buf[$i]);
            if ($stdout !== null || feof($s)) {
                $body = $stdout === null ? null : substr($stdout, (int)strpos($stdout, "\r\n\r\n") + 4);
                $done[$i] = [($ready - $sent[$i]) / 1e6, $body];
                fclose($s); // php-fpm's worker reads until our close before it takes the next request
                unset($conns[$i]);
            }
        }
    }
    $wall = (hrtime(true) - $start) / 1e9;
    foreach ($conns as $i => $s) { // no reply in time
        $done[$i] = [NAN, null];
        fclose($s);
    }
    ksort($done);
    return ['wall' => $wall, 'requests' => $done];
}

/** Calls per command from INFO commandstats, without the benchmark's own CONFIG RESETSTAT. */
function command_calls(Redis $redis): array
{
    $calls = [];
    foreach ($redis->info('commandstats') as $name => $stat) {
        $cmd = substr($name, strlen('cmdstat_'));
        if ($cmd !== 'config|resetstat' && preg_match('/calls=(\d+)/', $stat, $m)) {
            $calls[$cmd] = (int)$m[1];
        }
    }
    return $calls;
}

/** A connection in MONITOR mode. */
function monitor_open(string $host, int $port)
{
    $m = stream_socket_client("tcp://$host:$port", $errno, $errstr, 1.0) ?: throw new RuntimeException("monitor: $errstr");
    fwrite($m, "MONITOR\r\n");
    if (trim((string)fgets($m)) !== '+OK') {
        throw new RuntimeException('MONITOR refused');
    }
    return $m;
}

/**
 * Reads MONITOR up to a marker sent now: the commands sent by clients, by
 * name, and how many of them were the lock's: every command but the page's
 * own GET, SET and INCR of its cache keys and phpredis' ECHO, that is the
 * scripts, XREAD, and any command on a key named lock:... or ...:lock.
 * @return array{0: array<string, int>, 1: int}
 */
function monitor_drain($m, Redis $redis): array
{
    $marker = 'stampede-monitor-end-' . bin2hex(random_bytes(4));
    $redis->echo($marker);
    $byName = [];
    $lock = 0;
    stream_set_timeout($m, 10);
    while (($line = fgets($m)) !== false && !str_contains($line, $marker)) {
        if (preg_match('/^\+[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"(?: "([^"]*)")?/', $line, $x) && $x[1] !== 'lua') {
            $name = strtolower($x[2]);
            $byName[$name] = ($byName[$name] ?? 0) + 1;
            $arg = $x[3] ?? '';
            $page = in_array($name, ['get', 'set', 'incr', 'echo'], true)
                && !str_starts_with($arg, 'lock:') && !str_contains($arg, ':lock');
            $lock += $page ? 0 : 1;
        }
    }
    fclose($m);
    arsort($byName);
    return [$byName, $lock];
}

/** The value at quantile $q of sorted $xs (nearest rank). */
function quantile(array $xs, float $q): float
{
    return $xs ? $xs[max(0, (int)ceil($q * count($xs)) - 1)] : NAN;
}
