--TEST--
Hostile server, malformed streams (garbage, endless line, endless nesting, bad numbers): each call is refused as a protocol error naming what, within the timeout; the next call gets a new connection
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../hostile.inc';

$timeout = 0.5;
$h = new RlHostileServer('garbage');
$lock = new RedisLock($h->addr(), ['timeout' => $timeout]);
$hwm = rl_vm_hwm_kb();
foreach (['garbage', 'endless-line', 'deep-nest', 'bad-number', 'bad-length'] as $mode) {
    echo "-- $mode\n";
    $h->mode($mode);
    foreach ([
        'lock' => fn() => $lock->lock('a', 10000),
        'unlock' => fn() => $lock->unlock('a', str_repeat('0', 32)),
        'extend' => fn() => $lock->extend('a', str_repeat('0', 32), 10000),
    ] as $what => $f) {
        [$res, $s] = rl_hostile_call($f, $h->port());
        echo "$what: $res\n";
        if ($s >= rl_hostile_bound($timeout)) {
            echo "  took $s s\n";
        }
    }
}
$grew = rl_vm_hwm_kb() - $hwm;
echo "peak memory grew < 32 MB: ", $grew < 32 * 1024 ? 'yes' : "no ($grew KiB)", "\n";

$h->proxyTo(rl_test_port(0));
$t = $lock->lock('hostile-401', 10000);
var_dump(is_string($t), $lock->extend('hostile-401', $t, 20000), $lock->unlock('hostile-401', $t));
?>
--EXPECTF--
-- garbage
lock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: unknown reply type byte 0x%x
unlock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: unknown reply type byte 0x%x
extend: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: unknown reply type byte 0x%x
-- endless-line
lock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: line longer than 65536 bytes without CRLF
unlock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: line longer than 65536 bytes without CRLF
extend: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: line longer than 65536 bytes without CRLF
-- deep-nest
lock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: arrays nested deeper than 5
unlock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: arrays nested deeper than 5
extend: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: arrays nested deeper than 5
-- bad-number
lock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: integer reply is not a number
unlock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: integer reply is not a number
extend: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: integer reply is not a number
-- bad-length
lock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: bulk length -5
unlock: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: bulk length -5
extend: RedisLockException: Redis node 127.0.0.1:PORT: protocol error: bulk length -5
peak memory grew < 32 MB: yes
bool(true)
bool(true)
bool(true)
