--TEST--
Hostile server floods +OK: the reply owed is not trusted, the rest is refused as replies nobody asked for, at once and without buffering; a flooding node does not keep the call from its timeout
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../hostile.inc';

$timeout = 0.5;
$h = new RlHostileServer('flood');
$lock = new RedisLock($h->addr(), ['timeout' => $timeout]);
$hwm = rl_vm_hwm_kb();
foreach ([
    'lock' => fn() => $lock->lock('a', 10000),
    'unlock' => fn() => $lock->unlock('a', str_repeat('0', 32)),
    'extend' => fn() => $lock->extend('a', str_repeat('0', 32), 10000),
    'lock again' => fn() => $lock->lock('a', 10000),
] as $what => $f) {
    [$res, $s] = rl_hostile_call($f, $h->port());
    echo "$what: $res\n";
    echo "  within the timeout: ", $s < rl_hostile_bound($timeout) ? 'yes' : "no ($s s)", "\n";
}
$grew = rl_vm_hwm_kb() - $hwm;
echo "peak memory grew < 32 MB: ", $grew < 32 * 1024 ? 'yes' : "no ($grew KiB)", "\n";

$h->proxyTo(rl_test_port(0));
$t = $lock->lock('hostile-402', 10000);
var_dump(is_string($t), $lock->unlock('hostile-402', $t));
?>
--EXPECT--
lock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: reply nobody asked for (byte 0x2b)
  within the timeout: yes
unlock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: reply nobody asked for (byte 0x2b)
  within the timeout: yes
extend: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: reply nobody asked for (byte 0x2b)
  within the timeout: yes
lock again: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: reply nobody asked for (byte 0x2b)
  within the timeout: yes
peak memory grew < 32 MB: yes
bool(true)
bool(true)
