--TEST--
Option database: the lock lands in that database, not in db 0; objects on different databases do not share
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer();
$db0 = $srv->client();
$db3 = $srv->client();
var_dump($db3->cmd('SELECT', 3));

foreach ([true, false] as $persistent) {
    echo "persistent: ", var_export($persistent, true), "\n";
    $l3 = new RedisLock($srv->addr(), ['database' => 3, 'persistent' => $persistent]);
    $t3 = $l3->lock('t029', 30000);
    var_dump(is_string($t3));
    var_dump($db3->get('lock:t029') === $t3);
    var_dump($db0->exists('lock:t029'));

    // Same resource on db 0 is a different key: free.
    $l0 = new RedisLock($srv->addr(), ['persistent' => $persistent]);
    $t0 = $l0->lock('t029', 30000);
    var_dump(is_string($t0));
    var_dump($db0->get('lock:t029') === $t0);
    var_dump($db3->get('lock:t029') === $t3);

    // A second db-3 object sees it held.
    $other3 = new RedisLock($srv->addr(), ['database' => 3, 'persistent' => $persistent]);
    var_dump($other3->lock('t029', 30000));
    var_dump($other3->acquireLock('t029', 30));

    // extend/unlock go to db 3 as well.
    var_dump($l3->extend('t029', $t3, 50000));
    var_dump($db3->pttl('lock:t029') > 40000);
    var_dump($l3->unlock('t029', $t0));
    var_dump($l3->unlock('t029', $t3));
    var_dump($db3->exists('lock:t029'));
    var_dump($db0->get('lock:t029') === $t0);
    var_dump($l0->unlock('t029', $t0));
    var_dump($db0->exists('lock:t029'));
}
var_dump($db0->cmd('DBSIZE'), $db3->cmd('DBSIZE'));
?>
--EXPECT--
string(2) "OK"
persistent: true
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
NULL
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
int(0)
bool(true)
bool(true)
int(0)
persistent: false
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
NULL
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
int(0)
bool(true)
bool(true)
int(0)
int(0)
int(0)
