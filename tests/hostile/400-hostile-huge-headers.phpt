--TEST--
Hostile server, huge headers (*2147483647, $9000000000000 then endless bytes): lock/unlock/extend are refused as protocol errors within the timeout, memory does not grow; the next call gets a new connection
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../hostile.inc';

$timeout = 0.5;
foreach (['huge-array', 'huge-bulk'] as $mode) {
    echo "-- $mode\n";
    $h = new RlHostileServer($mode);
    $lock = new RedisLock($h->addr(), ['timeout' => $timeout]);
    $hwm = rl_vm_hwm_kb();
    foreach ([
        'lock' => fn() => $lock->lock('a', 10000),
        'unlock' => fn() => $lock->unlock('a', str_repeat('0', 32)),
        'extend' => fn() => $lock->extend('a', str_repeat('0', 32), 10000),
    ] as $what => $f) {
        [$res, $s] = rl_hostile_call($f, $h->port());
        echo "$what: $res\n";
        echo "  within the timeout: ", $s < rl_hostile_bound($timeout) ? 'yes' : "no ($s s)", "\n";
    }
    $grew = rl_vm_hwm_kb() - $hwm;
    echo "peak memory grew < 32 MB: ", $grew < 32 * 1024 ? 'yes' : "no ($grew KiB)", "\n";

    // the refused connections were closed: a real server behind the same
    // address now answers on a new one
    $before = $h->accepted();
    $h->proxyTo(rl_test_port(0));
    $t = $lock->lock('hostile-400', 10000);
    var_dump(is_string($t), $lock->unlock('hostile-400', $t));
    echo "new connections: ", $h->accepted() - $before, "\n";
    $h->stop();
}
?>
--EXPECTF--
-- huge-array
lock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: array of 2147483647 elements (limit 64)
  within the timeout: yes
unlock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: array of 2147483647 elements (limit 64)
  within the timeout: yes
extend: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: array of 2147483647 elements (limit 64)
  within the timeout: yes
peak memory grew < 32 MB: yes
bool(true)
bool(true)
new connections: 1
-- huge-bulk
lock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: bulk reply of 9000000000000 bytes (limit 65536)
  within the timeout: yes
unlock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: bulk reply of 9000000000000 bytes (limit 65536)
  within the timeout: yes
extend: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: bulk reply of 9000000000000 bytes (limit 65536)
  within the timeout: yes
peak memory grew < 32 MB: yes
bool(true)
bool(true)
new connections: 1
