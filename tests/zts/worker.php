<?php
/* Scenario c: "worker mode". Request 0 of every thread is a long request
 * that handles UNITS units of work (a loop, as a FrankenPHP worker script
 * does: the request never ends between units). Each unit makes its own
 * RedisLock object and locks; some units unlock, some leave the release
 * to the object's destruction at the unit's end, some wait for a lock the
 * other threads contend for. The thread's pooled connections are kept the
 * whole loop (same CLIENT IDs before and after, each made once), and the
 * requests after it use the same ones. Each thread logs in as its own ACL
 * user (wN): CLIENT LIST tells its connections apart. The last request
 * counts every thread's connections of the shared default user: one set
 * per thread, never one connection for two threads. */
require __DIR__ . '/lib.php';

$units = (int)(getenv('ZTS_UNITS') ?: 300);
$raw = new Raw();
$n = thread();
$user = "w$n";
$opts = ['username' => $user, 'password' => "pw-$n", 'timeout' => 10.0];

$ids = function () use ($raw, $user): array {
    $ids = array_column($raw->extClients($user), 'id');
    sort($ids);
    return $ids;
};

if (request() === 0) {
    $raw->cmd('ACL', 'SETUSER', $user, 'on', ">pw-$n", '~*', '&*', '+@all');
    // the first unit makes the thread's two connections: commands, and waiting
    $first = new RedisLock(server(), $opts);
    $t = $first->lock("c:t$n:first", 5000);
    $second = new RedisLock(server(), $opts);
    $waited = $second->lock("c:t$n:first", 5000, 0.05); // held: waits in vain
    check($t !== null && $waited === null && $first->unlock("c:t$n:first", $t), "c: thread $n: first unit locks and waits");
    unset($first, $second);
    $before = $ids();
    $released = $destroyed = 0;
    for ($i = 0; $i < $units; $i++) {
        $unit = new RedisLock(server(), $opts); // a unit of work's own object
        $res = $i % 3 === 0 ? 'c:shared' : "c:t$n:" . ($i % 10);
        $token = $unit->lock($res, 5000, 10.0);
        if ($token === null) {
            check(false, "c: thread $n: unit $i did not get $res");
            continue;
        }
        if ($i % 2 === 0) {
            $released += $unit->unlock($res, $token) ? 1 : 0;
        } else {
            $destroyed++; // released when \$unit is replaced: the object's destruction
        }
    }
    unset($unit);
    $after = $ids();
    check($before !== [] && $before === $after,
          "c: thread $n: $units units in one request kept its connections (CLIENT IDs " . implode(',', $before) . ' -> ' . implode(',', $after) . ')');
    $left = $raw->cmd('KEYS', "lock:c:t$n:*");
    check($left === [], "c: thread $n: every unit's lock released ($released by unlock, $destroyed by destruction), " . count($left) . ' left');
    $conns = RedisLock::stats()['connections'];
    check(array_sum(array_column($conns, 'connects')) === count($conns) && array_sum(array_column($conns, 'reconnects')) === 0,
          "c: thread $n: each pooled connection made once in the loop");
    $raw->cmd('SET', "c:ids:$user", implode(',', $after));
    return;
}

// the requests after the worker request: the same connections of this thread
$lock = new RedisLock(server(), $opts);
$t = $lock->lock("c:t$n:after", 5000, 1.0);
check($t !== null && $lock->unlock("c:t$n:after", $t), "c: thread $n: request " . request() . ' locks');
$shared = new RedisLock(server(), ['timeout' => 10.0]); // the default user: the same identity in every thread
$t = $shared->lock('c:shared-default', 5000, 10.0);
check($t !== null && $shared->unlock('c:shared-default', $t), "c: thread $n: request " . request() . ' locks as the default user');
check(implode(',', $ids()) === $raw->cmd('GET', "c:ids:$user"),
      "c: thread $n: request " . request() . ' reuses the connections of its worker request');

if (request() === (int)$_SERVER['HOST_REQUESTS'] - 1) {
    // this thread's open pooled connections of the default user: those not of user wN
    $open = count(array_filter(RedisLock::stats()['connections'], fn($c) => $c['open']));
    $raw->cmd('INCRBY', 'c:default-pooled', (string)($open - count($ids())));
    $raw->cmd('INCR', 'c:done');
    check(Raw::until(fn() => (int)$raw->cmd('GET', 'c:done') === threads(), 60), "c: thread $n: every thread done");
    if ($n === 0) {
        $want = (int)$raw->cmd('GET', 'c:default-pooled');
        $have = count($raw->extClients('default'));
        check($want >= threads() && $have === $want,
              "c: default user: $have connections in Redis, $want open in the threads' pools (at least one per thread, none shared)");
        $raw->cmd('SET', 'c:compared', '1');
    } else {
        // a thread that ends closes its pool: stay until thread 0 has counted
        check(Raw::until(fn() => $raw->cmd('GET', 'c:compared') !== null, 60), "c: thread $n: thread 0 counted");
    }
}
