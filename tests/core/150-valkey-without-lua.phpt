--TEST--
A Valkey without its Lua module (Valkey 9.1+, MODULE UNLOAD lua): every call that needs a script throws at once, naming the node, the server's words and the cause (not retried: at most six script commands a call, a wait of 5 s included; each script's EVALSHA is answered NOSCRIPT, then its EVAL fails); a plain lock() works, and so does unlock() of a lock with nobody queued, by the server's DELIFEQ (issue 35)
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
$mods = json_encode((new RlTestRedis(rl_test_server(0)))->cmd('MODULE', 'LIST'));
if (!preg_match('/"name","lua"/i', $mods)) {
    die('skip the server\'s Lua is not a module it can unload (Valkey 9.1+)');
}
?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer(['--enable-module-command', 'local']);
$admin = new RlTestRedis($srv->addr());
echo 'MODULE UNLOAD lua: ', $admin->cmd('MODULE', 'UNLOAD', 'lua'), "\n";
$admin->set('lock:held', 'another', 'PX', 60000);
$scripts = function () use ($admin): int {
    $n = 0;
    foreach (explode("\n", $admin->cmd('INFO', 'commandstats')) as $line) {
        if (preg_match('/^cmdstat_(eval|evalsha|script)\|?\w*:calls=(\d+)/', trim($line), $m)) {
            $n += (int)$m[2];
        }
    }
    return $n;
};
$l = new RedisLock($srv->addr());
$t = $l->lock('plain', 60000);
echo 'plain lock(): ', $t !== null ? 'taken' : 'null', ', PTTL ', $admin->pttl('lock:plain') > 0 ? 'set' : 'none', "\n";
$calls = [
    'unlock' => fn() => $l->unlock('plain', $t),
    'extend' => fn() => $l->extend('plain', $t, 60000),
    'lock with a wait' => fn() => $l->lock('held', 5000, 5.0),
    'lockShared' => fn() => $l->lockShared('s', 5000),
    'acquirePermit' => fn() => $l->acquirePermit('p', 2, 5000),
    'RedLock unlock' => function () use ($srv) {
        $r = new RedLock([$srv->addr()], 10, 3);
        $tok = $r->lock('rl', 60000);
        return $r->unlock('rl', $tok);
    },
];
foreach ($calls as $name => $call) {
    $before = $scripts();
    try {
        $n = $scripts();
        $r = $call();
        echo "$name: no exception: ", var_export($r, true), $scripts() === $n ? ', no script' : ', ' . ($scripts() - $n) . ' script commands', "\n";
    } catch (RedisLockException $e) {
        $msg = str_replace($srv->addr(), 'SRV', $e->getMessage());
        $n = $scripts() - $before;
        echo "$name: ", get_class($e), ' ', $e->getCode(), ', ', $n >= 1 && $n <= 6 ? 'not retried' : "$n script commands", "\n";
    }
}
echo $msg, "\n";
echo 'the plain lock released by unlock(): ', $admin->exists('lock:plain') ? 'no' : 'yes', "\n";
?>
--EXPECT--
MODULE UNLOAD lua: OK
plain lock(): taken, PTTL set
unlock: no exception: true, no script
extend: RedisLockException 6, not retried
lock with a wait: RedisLockException 6, not retried
lockShared: RedisLockException 6, not retried
acquirePermit: RedisLockException 6, not retried
RedLock unlock: no exception: true, no script
Redis node SRV: ERR Could not find scripting engine 'lua' (the server refuses Lua scripts: give the user +@scripting, or load its Lua module; without scripts only lock() and unlock() work, and only where the server has DELEX or DELIFEQ)
the plain lock released by unlock(): yes
