<?php
/*
 * A small FastCGI load generator: keeps $concurrency requests in flight
 * against php-fpm for $seconds, one connection per request (nginx's default,
 * without fastcgi_keep_conn), all driven from one stream_select() loop.
 * A reply counts as ok when its body is exactly "ok".
 */

/** One FastCGI request (id 1, responder role, no keep-alive): BEGIN_REQUEST, PARAMS, STDIN. */
function fcgi_encode(array $params): string
{
    $record = fn(int $type, string $body) => pack('CCnnCx', 1, $type, 1, strlen($body), 0) . $body;
    $len = fn(int $n) => $n < 128 ? chr($n) : pack('N', $n | 0x80000000);
    $pairs = '';
    foreach ($params as $k => $v) {
        $pairs .= $len(strlen($k)) . $len(strlen($v)) . $k . $v;
    }
    return $record(1, pack('nCx5', 1, 0)) . $record(4, $pairs) . $record(4, '') . $record(5, '');
}

/** The STDOUT of a complete reply (END_REQUEST seen), or null while incomplete. */
function fcgi_decode(string $buf): ?string
{
    $stdout = '';
    for ($pos = 0; strlen($buf) - $pos >= 8; $pos += 8 + $h['len'] + $h['pad']) {
        $h = unpack('Cver/Ctype/nid/nlen/Cpad', $buf, $pos);
        if (strlen($buf) - $pos < 8 + $h['len'] + $h['pad']) {
            return null;
        }
        if ($h['type'] === 6) {
            $stdout .= substr($buf, $pos + 8, $h['len']);
        } elseif ($h['type'] === 3) {
            return $stdout;
        }
    }
    return null;
}

/**
 * Runs the load; returns ok and failed counts, the wall time (until the last
 * reply) and the latencies of the ok requests in ms, sorted.
 */
function fcgi_load(string $address, array $params, int $concurrency, float $seconds): array
{
    $request = fcgi_encode($params);
    $start = hrtime(true);
    $end = $start + (int)($seconds * 1e9);
    $inflight = []; // id => [stream, reply so far, start ns]
    $ok = $failed = 0;
    $latencies = [];
    $firstFailure = null;
    while (true) {
        while (count($inflight) < $concurrency && hrtime(true) < $end) {
            $t = hrtime(true);
            $s = @stream_socket_client($address, $errno, $errstr, 5.0);
            if ($s === false || fwrite($s, $request) !== strlen($request)) {
                $failed++;
                $firstFailure ??= "connect: $errstr";
                usleep(1000);
                continue;
            }
            stream_set_blocking($s, false);
            $inflight[(int)$s] = [$s, '', $t];
        }
        if (!$inflight) {
            break;
        }
        $read = array_column($inflight, 0);
        $write = $except = null;
        if (!stream_select($read, $write, $except, 5)) {
            $failed += count($inflight); // nothing for 5 s: php-fpm is stuck, give up
            $firstFailure ??= 'no reply for 5 s';
            break;
        }
        foreach ($read as $s) {
            $id = (int)$s;
            $chunk = fread($s, 65536);
            $inflight[$id][1] .= $chunk;
            $stdout = fcgi_decode($inflight[$id][1]);
            if ($stdout === null && !feof($s)) {
                continue;
            }
            if ($stdout !== null && str_ends_with($stdout, "\r\n\r\nok")) {
                $ok++;
                $latencies[] = (hrtime(true) - $inflight[$id][2]) / 1e6;
            } else {
                $failed++;
                $firstFailure ??= 'reply: ' . substr(trim((string)$stdout), 0, 200);
            }
            fclose($s);
            unset($inflight[$id]);
        }
    }
    if ($firstFailure !== null) {
        fwrite(STDERR, "fcgi_load: $failed failed, first: $firstFailure\n");
    }
    sort($latencies);
    return ['ok' => $ok, 'failed' => $failed, 'seconds' => (hrtime(true) - $start) / 1e9, 'latencies' => $latencies];
}

/**
 * One measured run of a request mode, after a short warm-up (pools filled):
 * requests/s, new connections per request ($received(): the node's
 * total_connections_received), median latency in ms, failures.
 */
function fcgi_measure(string $address, array $params, int $concurrency, float $seconds, callable $received): array
{
    fcgi_load($address, $params, $concurrency, min(0.3, $seconds));
    $before = $received();
    $res = fcgi_load($address, $params, $concurrency, $seconds);
    $done = $res['ok'] + $res['failed'];
    return [
        'rps' => $res['ok'] / $res['seconds'],
        'connects' => $done ? ($received() - $before) / $done : NAN,
        'p50' => $res['latencies'] ? $res['latencies'][intdiv(count($res['latencies']), 2)] : NAN,
        'failed' => $res['failed'],
    ];
}

/** The median of field $k over the rounds of one mode. */
function fcgi_median(array $rounds, string $k): float
{
    $xs = array_column($rounds, $k);
    sort($xs);
    return $xs[intdiv(count($xs), 2)];
}
