--TEST--
A server that refuses Lua scripts (a user whose ACL lacks @scripting): every call that needs a script throws at once, naming the node, the server's refusal and the cause (not retried: at most three refused commands a call, a wait of 5 s included); a plain lock() too where no DELEX or DELIFEQ could release it (on a connection's first, its key set before the refusal was read is told to end by its TTL; on the next, nothing is set); no password in any message
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer(['--user', 'u070', 'on', '>pw070secret', '~*', '&*', '+@all', '-@scripting']);
$admin = new RlTestRedis($srv->addr());
$admin->set('lock:held', 'another', 'PX', 60000);
// a server with MSETEX (Redis 8.4+, Valkey 9) takes lockMany()'s first form without a script
$info = $admin->cmd('COMMAND', 'INFO', 'msetex');
$hasMsetex = is_array($info) && ($info[0] ?? null) !== null;
// a server with DELEX (Redis 8.4+) or DELIFEQ (Valkey 9) releases a lock held with nobody queued without a script
$native = array_intersect(array_map('strtolower', (array)$admin->cmd('COMMAND', 'LIST', 'FILTERBY', 'PATTERN', 'del*')), ['delex', 'delifeq']);
$rejected = function () use ($admin): int {
    $n = 0;
    foreach (explode("\n", $admin->cmd('INFO', 'commandstats')) as $line) {
        if (preg_match('/^cmdstat_(eval|evalsha|script)\|?\w*:.*rejected_calls=(\d+)/', trim($line), $m)) {
            $n += (int)$m[2];
        }
    }
    return $n;
};
$l = new RedisLock($srv->addr(), ['username' => 'u070', 'password' => 'pw070secret']);
// Without a native release a lock could not be released before its TTL:
// lock() refuses. The connection's first SET goes out with the question
// (EVALSHA of no script) and may have been granted: the message says so.
// From then on the connection knows: nothing is set.
$t = null;
foreach (['plain' => 'first', 'plain2' => 'next'] as $key => $which) {
    $before = $rejected();
    try {
        $tok = $l->lock($key, 60000);
        // (a server with DELEX or DELIFEQ: taken, as it should; the next
        // released at once, natively, so its key is gone as if never set)
        $ok = $native && $tok !== null && ($which === 'first' || $l->unlock($key, $tok));
        $t ??= $tok;
        echo "$which lock(): ", $ok ? 'RedisLockException 6, refused' . ($which === 'first' ? ', the key left to its TTL' : '') : 'taken', "\n";
    } catch (RedisLockException $e) {
        $told = str_contains($e->getMessage(), "(the lock's key was set before the refusal was read: it ends by its TTL)");
        echo "$which lock(): ", get_class($e), ' ', $e->getCode(), ', ', ($n = $rejected() - $before) >= 1 && $n <= 3 ? 'refused' : "refused $n times",
             $told ? ', the key left to its TTL' : '', "\n";
        if (str_contains($e->getMessage(), 'pw070secret')) {
            echo "  the password is in the message\n";
        }
    }
    echo "  PTTL: ", $admin->pttl("lock:$key") > 0 ? 'set' : 'none', "\n";
}
$calls = [
    'unlock' => fn() => $l->unlock('plain', $t ?? 'not-taken'),
    'extend' => fn() => $l->extend('plain', $t ?? 'not-taken', 60000),
    'lock with a wait' => fn() => $l->lock('held', 5000, 5.0),
    'lockShared' => fn() => $l->lockShared('s', 5000),
    'acquirePermit' => fn() => $l->acquirePermit('p', 2, 5000),
    'lockMany' => fn() => $l->lockMany(['m1', 'm2'], 5000),
    'RedLock unlock' => function () use ($srv) {
        $r = new RedLock(['redis://u070:pw070secret@' . $srv->addr()], 10, 3);
        $tok = $r->lock('rl', 60000);
        return $r->unlock('rl', $tok);
    },
];
foreach ($calls as $name => $call) {
    $before = $rejected();
    try {
        $r = $call();
        if ($name === 'lockMany' && $hasMsetex && is_string($r)) {
            echo "$name: RedisLockException 6, refused, not retried\n"; // (MSETEX: taken without a script, as it should)
            continue;
        }
        if (str_ends_with($name, 'unlock') && $native && $r === true) {
            echo "$name: RedisLockException 6, refused, not retried\n"; // (released by DELEX/DELIFEQ without a script, as it should)
            continue;
        }
        echo "$name: no exception: ", var_export($r, true), "\n";
    } catch (RedisLockException $e) {
        $msg = str_replace($srv->addr(), 'SRV', $e->getMessage());
        $n = $rejected() - $before;
        echo "$name: ", get_class($e), ' ', $e->getCode(), ', ', $n >= 1 && $n <= 3 ? 'refused, not retried' : "$n refused", "\n";
        if (str_contains($e->getMessage(), 'pw070secret')) {
            echo "  the password is in the message\n";
        }
    }
}
// the server's own words differ between versions ("this user has no
// permissions", "User u070 has no permissions"); ours follow them
echo str_starts_with($msg, 'Redis node SRV: NOPERM ') && str_contains($msg, "'evalsha'") ? 'Redis node SRV: NOPERM ... \'evalsha\' command' : $msg,
     substr($msg, (int)strpos($msg, ' (the server refuses')), "\n";
// (where the server has a native release, unlock() above released it: gone)
echo 'the plain lock still held until its TTL: ', ($admin->pttl('lock:plain') > 0) !== (bool)$native ? 'yes' : 'no', "\n";
?>
--EXPECT--
first lock(): RedisLockException 6, refused, the key left to its TTL
  PTTL: set
next lock(): RedisLockException 6, refused
  PTTL: none
unlock: RedisLockException 6, refused, not retried
extend: RedisLockException 6, refused, not retried
lock with a wait: RedisLockException 6, refused, not retried
lockShared: RedisLockException 6, refused, not retried
acquirePermit: RedisLockException 6, refused, not retried
lockMany: RedisLockException 6, refused, not retried
RedLock unlock: RedisLockException 6, refused, not retried
Redis node SRV: NOPERM ... 'evalsha' command (the server refuses Lua scripts: give the user +@scripting, or load its Lua module; without scripts only lock() and unlock() work, and only where the server has DELEX or DELIFEQ)
the plain lock still held until its TTL: yes
