<?php
/*
 * What our release costs against the servers' own compare-and-delete
 * (Valkey 9.0+ DELIFEQ key token; Redis 8.4+ and Valkey 9.2+ DELEX key
 * IFEQ token), and what using it costs a waiter.
 *   php -d extension=EXT_SO native_release.php LABEL=HOST:PORT ...
 *
 * 1. The release of an uncontended lock (nobody waits: our script does GET,
 *    DEL and an LPOP that finds no queue), per server, in rounds that
 *    interleave the ways so machine noise hits them alike:
 *      ext unlock()              the extension's release of a lock it took
 *                                at its first look: on a server with one,
 *                                its compare-and-delete and EXISTS of the
 *                                waiters' queue in one write, else the script
 *      ext unlock(), script      the same lock released by another object
 *                                (unlock() naming the token): the script,
 *                                EVALSHA with its 19 derived keys
 *      phpredis EVALSHA          the very command the extension sends
 *                                (captured with MONITOR), from phpredis
 *      phpredis DELIFEQ / DELEX  the server's command alone, from phpredis
 *      phpredis ... + EXISTS     it and EXISTS of the queue in one write
 *      phpredis PING             the round-trip floor
 *    Each release is timed alone (the SET that takes the lock is not). Per
 *    round: CONFIG RESETSTAT, the releases, then INFO commandstats
 *    (usec_per_call of the release's commands summed; a script's commands
 *    count inside EVALSHA's time) and INFO cpu (the server's user + system
 *    CPU over the round, per cycle: the SET included). Medians over rounds;
 *    "x script" divides by the extension's release by the script.
 * 2. Where the server has one: the handoff from a holder that took the lock
 *    at its first look to one queued waiter (in another process), released
 *    natively (compare-and-delete and EXISTS, then the wake script: a second
 *    round trip) or by the script (the wake inside), the two taking turns:
 *    from the release call to the waiter holding the lock.
 * Env: BENCH_ROUNDS (5), BENCH_RELEASES (4000 per round and way),
 * BENCH_HANDOFFS (300 per way).
 */
$rounds = max(1, (int)(getenv('BENCH_ROUNDS') ?: 5));
$n = max(100, (int)(getenv('BENCH_RELEASES') ?: 4000));
$handoffs = max(20, (int)(getenv('BENCH_HANDOFFS') ?: 300));

/** sdscatrepr()'s quoting, as MONITOR writes each argument, undone. */
function unrepr(string $line): array
{
    $args = [];
    $i = strpos($line, '"');
    while ($i !== false && $i < strlen($line)) {
        $s = '';
        for ($i++; $i < strlen($line) && $line[$i] !== '"'; $i++) {
            if ($line[$i] !== '\\') {
                $s .= $line[$i];
                continue;
            }
            $c = $line[++$i];
            if ($c === 'x') {
                $s .= chr(hexdec(substr($line, $i + 1, 2)));
                $i += 2;
            } else {
                $s .= ['n' => "\n", 'r' => "\r", 't' => "\t", 'a' => "\x07", 'b' => "\x08"][$c] ?? $c;
            }
        }
        $args[] = $s;
        $i = strpos($line, '"', $i + 1);
    }
    return $args;
}

/** The EVAL of the release script the extension sends for $resource (after SCRIPT FLUSH, so its source shows). */
function capture_release(string $host, int $port, Redis $r, string $resource): array
{
    $holder = new RedisLock("$host:$port", ['persistent' => false]);
    $other = new RedisLock("$host:$port", ['persistent' => false]);
    $r->script('flush');
    $mon = stream_socket_client("tcp://$host:$port", $errno, $errstr, 2.0) or exit("MONITOR: $errstr\n");
    fwrite($mon, "MONITOR\r\n");
    fgets($mon);
    $other->unlock($resource, $holder->lock($resource, 10000)); // another object's release: the script
    stream_set_timeout($mon, 2);
    while (($line = fgets($mon)) !== false) {
        $args = unrepr($line);
        if (($args[0] ?? '') === 'EVAL' && ($args[3] ?? '') === 'lock:' . $resource && count($args) > 10) {
            fclose($mon);
            return $args;
        }
    }
    exit("native_release: the release's EVAL did not show in MONITOR\n");
}

function stats(Redis $r): array
{
    $out = [];
    foreach ($r->info('commandstats') as $k => $v) {
        if (preg_match('/calls=(\d+),usec=(\d+)/', (string)$v, $m)) {
            $out[str_replace('cmdstat_', '', $k)] = [(int)$m[1], (int)$m[2]];
        }
    }
    return $out;
}

function cpu_us(Redis $r): float
{
    $i = $r->info('cpu');
    return ((float)$i['used_cpu_user'] + (float)$i['used_cpu_sys']) * 1e6;
}

/**
 * Handoffs from a holder (this process) that takes the lock at its first
 * look to a waiter (a child) queued behind it; the holder releases by each
 * of $releases($resource, $token) in turn, $count times each.
 * @return array<string, list<float>> ms, sorted, per way
 */
function handoffs(string $host, int $port, Redis $r, int $count, callable $take, array $releases): array
{
    $count *= count($releases);
    $resource = 'bench-native-{h}';
    $queue = "lock:$resource\0q"; // a key with a hash tag: its derived keys are it, NUL and a letter
    $r->del(['bench-native-go', 'bench-native-done']);
    $pid = pcntl_fork();
    if ($pid === 0) {
        $w = new RedisLock("$host:$port", ['persistent' => false]);
        $c = new Redis();
        $c->connect($host, $port, 5.0);
        for ($k = 0; $k < $count; $k++) {
            if (!$c->blPop(['bench-native-go'], 10)) {
                posix_kill(posix_getpid(), SIGKILL);
            }
            $t = $w->lock($resource, 10000, 10.0);
            $at = hrtime(true);
            $w->unlock($resource, $t);
            $c->rPush('bench-native-done', (string)$at);
        }
        // no shutdown: it would close the parent's phpredis connection it inherited
        posix_kill(posix_getpid(), SIGKILL);
    }
    $gaps = array_fill_keys(array_keys($releases), []);
    $ways = array_keys($releases);
    for ($k = 0; $k < $count; $k++) {
        $way = $ways[$k % count($ways)];
        $t = $take($resource);
        if (!is_string($t)) {
            exit("native_release: the holder could not take the lock\n");
        }
        $r->rPush('bench-native-go', '1');
        $until = microtime(true) + 5;
        while ($r->lLen($queue) < 1 && microtime(true) < $until) { // the waiter queued (it reads wakes from before its look too)
            usleep(100);
        }
        $t0 = hrtime(true);
        $releases[$way]($resource, $t);
        $done = $r->blPop(['bench-native-done'], 10);
        $gaps[$way][] = ((int)$done[1] - $t0) / 1e6;
    }
    pcntl_waitpid($pid, $status);
    foreach ($gaps as &$g) {
        sort($g);
    }
    return $gaps;
}

$median = function (array $xs): float { sort($xs); return $xs[intdiv(count($xs), 2)]; };
$pct = fn(array $sorted, float $p) => $sorted[min(count($sorted) - 1, (int)floor($p * count($sorted)))];
$handoffRows = [];

echo "## 1. release of an uncontended lock: the script against the server's own compare-and-delete\n";
echo "## ($rounds rounds x $n releases per way and server; medians over rounds)\n";
foreach (array_slice($argv, 1) as $spec) {
    [$label, $addr] = explode('=', $spec, 2);
    [$host, $port] = explode(':', $addr);
    $port = (int)$port;
    $r = new Redis();
    $r->connect($host, $port, 2.0);
    $info = $r->info('server');
    $server = isset($info['valkey_version']) ? 'Valkey ' . $info['valkey_version'] : 'Redis ' . $info['redis_version'];
    // as the extension finds it: COMMAND INFO, never the version string
    $ci = $r->rawCommand('COMMAND', 'INFO', 'DELIFEQ', 'DELEX');
    $has = ['delifeq' => is_array($ci[0] ?? null), 'delex' => is_array($ci[1] ?? null)];
    $native = $has['delifeq'] ? 'delifeq' : ($has['delex'] ? 'delex' : null);
    $nativeArgs = fn(string $k, string $t) => $native === 'delex' ? ['DELEX', $k, 'IFEQ', $t] : ['DELIFEQ', $k, $t];
    echo "\n### $label: $server (INFO redis_version $info[redis_version]); COMMAND INFO: DELIFEQ "
        . ($has['delifeq'] ? 'yes' : 'no') . ', DELEX ' . ($has['delex'] ? 'yes' : 'no') . "\n";

    $resource = 'bench-native';
    $key = 'lock:' . $resource;
    $eval = capture_release($host, $port, $r, $resource);
    $sha = sha1($eval[1]);
    $numkeys = (int)$eval[2];
    $keys = array_slice($eval, 3, $numkeys);
    $extra = array_slice($eval, 3 + $numkeys + 1); // ARGV after the token
    $queue = $keys[1];                           // KEYS[2]: the waiters' queue
    $r->script('load', $eval[1]);

    // one pooled connection for the extension's ways; a holder that is not
    // re-entrant, so a lock released by the other object is not refreshed
    $lock = new RedisLock("$host:$port", ['reentrant' => false]);
    $other = new RedisLock("$host:$port");
    $tok = fn() => bin2hex(random_bytes(16));
    $take = function () use ($r, $key, $tok) {
        $t = $tok();
        if ($r->set($key, $t, ['nx', 'px' => 10000]) !== true) {
            exit("native_release: could not take $key\n");
        }
        return $t;
    };
    $extCmds = $native ? [$native, 'exists'] : ['evalsha'];
    /** name => [commands counted, setup(): token, release(token): bool] */
    $ways = [
        'ext unlock()' => [$extCmds, fn() => $lock->lock($resource, 10000), fn($t) => $lock->unlock($resource, $t)],
        'ext unlock(), script' => [['evalsha'], fn() => $lock->lock($resource, 10000), fn($t) => $other->unlock($resource, $t)],
        'phpredis EVALSHA (ours)' => [['evalsha'], $take,
            fn($t) => $r->evalSha($sha, array_merge($keys, [$t], $extra), $numkeys) === 1],
    ];
    if ($native) {
        $cmd = $native === 'delex' ? 'DELEX IFEQ' : 'DELIFEQ';
        $ways["phpredis $cmd"] = [[$native], $take, fn($t) => $r->rawCommand(...$nativeArgs($key, $t)) === 1];
        $ways["phpredis $cmd + EXISTS queue"] = [[$native, 'exists'], $take, function ($t) use ($r, $key, $queue, $nativeArgs) {
            $p = $r->multi(Redis::PIPELINE);
            $p->rawCommand(...$nativeArgs($key, $t));
            $p->exists($queue);
            [$deleted, $waiters] = $p->exec();
            return $deleted === 1 && $waiters === 0;
        }];
    }
    $ways['phpredis PING (round-trip floor)'] = [['ping'], fn() => '', fn($t) => $r->ping() !== false];

    foreach ($ways as $way => [, $setup, $release]) { // warm each way: connections, scripts, COMMAND INFO
        for ($i = 0; $i < 50; $i++) {
            $release($setup());
        }
    }
    $samples = [];
    for ($round = 0; $round < $rounds; $round++) {
        foreach ($ways as $way => [$cmds, $setup, $release]) {
            $r->rawCommand('CONFIG', 'RESETSTAT');
            $cpu0 = cpu_us($r);
            $times = [];
            for ($i = 0; $i < $n; $i++) {
                $t = $setup();
                $t0 = hrtime(true);
                $ok = $release($t);
                $times[] = hrtime(true) - $t0;
                if (!$ok) {
                    exit("native_release: $way: a release failed\n");
                }
            }
            $cpu = (cpu_us($r) - $cpu0) / $n;
            $st = stats($r);
            $usec = 0.0;
            foreach ($cmds as $c) {
                [$calls, $us] = $st[$c] ?? [0, 0];
                if ($calls < $n) {
                    exit("native_release: $way: $c counted $calls calls, not $n\n");
                }
                $usec += $us / $calls;
            }
            sort($times);
            $samples[$way]['usec'][] = $usec;
            $samples[$way]['cpu'][] = $cpu;
            $samples[$way]['mean'][] = array_sum($times) / $n / 1e3;
            $samples[$way]['p50'][] = $times[intdiv($n, 2)] / 1e3;
            $samples[$way]['p99'][] = $times[(int)($n * 0.99)] / 1e3;
        }
    }
    $base = $samples['ext unlock(), script'];
    printf("%-36s %11s %8s %9s %8s %9s %8s %7s %7s\n", 'release', 'usec/call', 'x script', 'cpu us/cy', 'x script',
        'rtt us', 'x script', 'p50 us', 'p99 us');
    foreach ($samples as $way => $s) {
        $name = $way === 'ext unlock()' ? ($native ? "ext unlock(), $native + exists" : 'ext unlock() (script)') : $way;
        printf("%-36s %11.2f %8.2f %9.2f %8.2f %9.1f %8.2f %7.1f %7.1f\n", $name, $median($s['usec']),
            $median($s['usec']) / $median($base['usec']), $median($s['cpu']), $median($s['cpu']) / $median($base['cpu']),
            $median($s['mean']), $median($s['mean']) / $median($base['mean']), $median($s['p50']), $median($s['p99']));
    }

    if ($native) {
        $holder = new RedisLock("$host:$port", ['reentrant' => false, 'persistent' => false]);
        $releaser = new RedisLock("$host:$port", ['persistent' => false]);
        $takeFirst = fn($res) => $holder->lock($res, 10000);
        $ways = ['script' => fn($res, $t) => $releaser->unlock($res, $t), 'native' => fn($res, $t) => $holder->unlock($res, $t)];
        handoffs($host, $port, $r, 10, $takeFirst, $ways); // warm
        $handoffRows[] = [$label, $server, $native, handoffs($host, $port, $r, $handoffs, $takeFirst, $ways)];
    }
    $lock = $other = null;
    $r->close();
}

if ($handoffRows) {
    echo "\n## 2. handoff from a holder that took the lock at its first look to one queued waiter\n";
    echo "## (release call to the waiter holding the lock; $handoffs handoffs per way, the ways taking turns)\n";
    printf("%-12s %-14s %-34s %10s %10s %9s\n", 'server', '', 'holder releases by', 'median ms', 'p90 ms', 'x script');
    foreach ($handoffRows as [$label, $server, $native, $g]) {
        $base = $pct($g['script'], 0.5);
        foreach (['script' => 'the script (wake inside)', 'native' => "$native + exists, then the wake script"] as $way => $what) {
            printf("%-12s %-14s %-34s %10.3f %10.3f %9.2f\n", $label, $server, $what, $pct($g[$way], 0.5), $pct($g[$way], 0.9),
                $pct($g[$way], 0.5) / $base);
        }
    }
}
echo "\n(usec/call: INFO commandstats, the server's time in the release's commands (a script's commands inside\n"
   . " EVALSHA's); cpu us/cy: the server's user + system CPU per cycle, the SET that took the lock and the reading\n"
   . " and writing of both included; rtt: the client's time per release. x script: against the extension's\n"
   . " release by the script.)\n";
