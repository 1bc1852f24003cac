--TEST--
Hostile server that stalls mid-reply (half a bulk string, or one byte every 50 ms that never ends it): each call times out after about the timeout, trickled bytes do not extend it; after the down window the next call gets a new connection
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../hostile.inc';

$timeout = 0.5;
$h = new RlHostileServer('half-reply');
$lock = new RedisLock($h->addr(), ['timeout' => $timeout]);
$hwm = rl_vm_hwm_kb();
foreach (['half-reply', 'slow-drip'] as $mode) {
    echo "-- $mode\n";
    $h->mode($mode);
    foreach ([
        'lock' => fn() => $lock->lock('a', 10000),
        'unlock' => fn() => $lock->unlock('a', str_repeat('0', 32)),
        'extend' => fn() => $lock->extend('a', str_repeat('0', 32), 10000),
    ] as $what => $f) {
        [$res, $s] = rl_hostile_call($f, $h->port());
        echo "$what: $res\n";
        echo "  about the timeout: ", ($s >= $timeout - 0.05 && $s < rl_hostile_bound($timeout)) ? 'yes' : "no ($s s)", "\n";
        usleep(1100000); // past the down window: the next call asks the node again
    }
}
$grew = rl_vm_hwm_kb() - $hwm;
echo "peak memory grew < 32 MB: ", $grew < 32 * 1024 ? 'yes' : "no ($grew KiB)", "\n";

$h->proxyTo(rl_test_port(0));
$t = $lock->lock('hostile-403', 10000);
var_dump(is_string($t), $lock->unlock('hostile-403', $t));
?>
--EXPECT--
-- half-reply
lock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 500 ms
  about the timeout: yes
unlock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 500 ms
  about the timeout: yes
extend: RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 500 ms
  about the timeout: yes
-- slow-drip
lock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 500 ms
  about the timeout: yes
unlock: RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 500 ms
  about the timeout: yes
extend: RedisLockConnectionException: Redis node 127.0.0.1:PORT: timed out: no reply within 500 ms
  about the timeout: yes
peak memory grew < 32 MB: yes
bool(true)
bool(true)
