<?php
/*
 * One contender of the handoff benchmark: takes the lock $holds times,
 * holding it HOLD_MS each and pausing PAUSE_MS after each release, and
 * writes "start acquire release" hrtime triples (ns) per hold.
 *   php handoff_worker.php IMPL HOST:PORT HOLDS HOLD_MS PAUSE_MS OUTFILE
 * IMPL: ext (RedisLock, woken at release) or poll-MS (SET NX PX every MS ms,
 * as Laravel (250) and Symfony (100) wait by default).
 */
require __DIR__ . '/peers.php';

[, $impl, $server, $holds, $holdMs, $pauseMs, $out] = $argv;
[$host, $port] = explode(':', $server);
$events = [];

if ($impl === 'ext') {
    $lock = new RedisLock($server);
    $take = fn() => $lock->lock('bench-handoff', 10000, 60.0);
    $give = fn($t) => $lock->unlock('bench-handoff', $t);
} else {
    $interval = (int)substr($impl, 5) * 1000;
    $r = new Redis();
    $r->connect($host, (int)$port, 1.0);
    $take = function () use ($r, $interval) {
        $t = bin2hex(random_bytes(16));
        while (!$r->set('lock:bench-handoff', $t, ['nx', 'px' => 10000])) {
            usleep($interval);
        }
        return $t;
    };
    $give = fn($t) => $r->eval(BENCH_RELEASE_LUA, ['lock:bench-handoff', $t], 1);
}

for ($i = 0; $i < (int)$holds; $i++) {
    $start = hrtime(true);
    $t = $take();
    $acquired = hrtime(true);
    usleep((int)$holdMs * 1000);
    $released = hrtime(true);
    $give($t);
    $events[] = "$start $acquired $released";
    usleep((int)$pauseMs * 1000);
}
file_put_contents($out, implode("\n", $events) . "\n");
