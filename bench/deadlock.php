<?php
/*
 * How soon a deadlock is told: two processes each hold one lock and wait
 * for the other's; the second to wait closes the cycle and gets
 * RedisLockDeadlockException. Measured from that wait's start (its own
 * attempt, the wait-for record, and the check that each lock is still
 * held) to the exception, over many cycles, on one node and on a 3-node
 * RedLock. Needs pcntl.
 *   php -d extension=EXT deadlock.php HOST:PORT[,HOST:PORT,HOST:PORT]
 * Env: BENCH_CYCLES (50).
 */
[, $list] = $argv;
$servers = explode(',', $list);
$cycles = max(1, (int)(getenv('BENCH_CYCLES') ?: 50));

require __DIR__ . '/quantile.php';

/** Redis on the first server, for the barrier and the measures. */
function cmd(string $addr, string ...$args): mixed
{
    static $socks = [];
    $s = $socks[getmypid() . " $addr"] ??= stream_socket_client("tcp://$addr"); // never a parent's socket after fork
    fwrite($s, '*' . count($args) . "\r\n" . implode('', array_map(fn($a) => '$' . strlen($a) . "\r\n$a\r\n", $args)));
    $line = fgets($s);
    return match ($line[0]) {
        ':' => (int)substr($line, 1),
        '$' => ($n = (int)substr($line, 1)) < 0 ? null : substr(fread($s, $n + 2), 0, $n),
        default => trim(substr($line, 1)),
    };
}

printf("%-18s %7s %9s %9s %9s %9s\n", 'scenario', 'cycles', 'p50 ms', 'p90 ms', 'max ms', 'told');
$scenarios = ['RedisLock, 1 node' => [$servers[0]]];
if (count($servers) >= 3) {
    $scenarios['RedLock, 3 nodes'] = array_slice($servers, 0, 3);
}
foreach ($scenarios as $name => $nodes) {
    $ms = [];
    $told = 0;
    for ($c = 0; $c < $cycles; $c++) {
        cmd($servers[0], 'DEL', 'bench-dl-in', 'bench-dl-ms');
        $pids = [];
        foreach ([['bench-dl-a', 'bench-dl-b', 0], ['bench-dl-b', 'bench-dl-a', 30]] as [$mine, $theirs, $delay]) {
            $pid = pcntl_fork();
            if ($pid === 0) {
                $l = count($nodes) === 1 ? new RedisLock($nodes[0]) : new RedLock($nodes, 10, 1);
                $t = $l->lock($mine, 10000);
                cmd($servers[0], 'INCR', 'bench-dl-in');
                while ((int)cmd($servers[0], 'GET', 'bench-dl-in') < 2) {
                    usleep(1000);
                }
                usleep($delay * 1000);
                $start = hrtime(true);
                try {
                    $u = $l->lock($theirs, 10000, 5.0);
                    $l->unlock($theirs, $u);
                } catch (RedisLockDeadlockException $e) {
                    cmd($servers[0], 'SET', 'bench-dl-ms', (string)((hrtime(true) - $start) / 1e6));
                }
                $l->unlock($mine, $t);
                exit(0);
            }
            $pids[] = $pid;
        }
        foreach ($pids as $pid) {
            pcntl_waitpid($pid, $status);
        }
        if (($v = cmd($servers[0], 'GET', 'bench-dl-ms')) !== null) {
            $ms[] = (float)$v;
            $told++;
        }
    }
    printf("%-18s %7d %9.2f %9.2f %9.2f %6d/%d\n", $name, $cycles, quantile($ms, 0.5), quantile($ms, 0.9), max($ms), $told, $cycles);
}
cmd($servers[0], 'DEL', 'bench-dl-in', 'bench-dl-ms');
echo "(from the closing wait's start to its RedisLockDeadlockException; the other process then has its lock)\n";
