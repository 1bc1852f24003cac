--TEST--
Pooled connection killed by the server (CLIENT KILL) between calls: the next calls reconnect and succeed
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = new RlTestServer();
$r = $server->client();
$me = $r->cmd('CLIENT', 'ID');
$ours = fn() => array_values(array_filter($r->clientList(), fn($c) => (int)$c['id'] !== $me));
$gone = fn() => rl_wait_until(fn() => count($ours()) === 0, 5.0) ? 'gone' : 'STILL THERE';
$received = fn() => (int)$r->info('stats')['total_connections_received'];

$lock = new RedisLock($server->addr());
$ta = $lock->lock('a', 60000);
var_dump($r->get('lock:a') === $ta);
[$first] = $ours();
$start = $received();

echo "-- CLIENT KILL ADDR, then unlock\n";
var_dump($r->clientKill($first['addr']));
echo $gone(), "\n";
var_dump($lock->unlock('a', $ta));            // no exception; really deleted
var_dump($r->exists('lock:a'));
$list = $ours();
echo "our connections: ", count($list), "\n";
var_dump($list[0]['id'] !== $first['id']);     // a new client, not the killed one
echo "opened: ", $received() - $start, "\n";

echo "-- killed again (all clients but the test's), then lock\n";
$second = $list[0];
var_dump($r->clientKillAllExceptMe());
echo $gone(), "\n";
$tb = $lock->lock('b', 60000);
var_dump(is_string($tb), $r->get('lock:b') === $tb);
$list = $ours();
echo "our connections: ", count($list), "\n";
var_dump(!in_array($list[0]['id'], [$first['id'], $second['id']], true));
echo "opened: ", $received() - $start, "\n";
var_dump($r->keys('lock:*'));                 // one acquire made exactly one key

echo "-- killed between acquireLock and releaseLock (another object, same pool)\n";
$other = new RedisLock($server->addr());
var_dump($other->acquireLock('c', 60));
$r->clientKillAllExceptMe();
echo $gone(), "\n";
var_dump($other->releaseLock('c'));
var_dump($r->exists('lock:c'));
echo "our connections: ", count($ours()), "\n";
var_dump($lock->unlock('b', $tb));
var_dump($r->keys('lock:*'));

echo "-- closed by the server's idle timeout (CONFIG SET timeout 1)\n";
$before = $ours();
$r->cmd('CONFIG', 'SET', 'timeout', '1');
echo rl_wait_until(fn() => count($ours()) === 0, 10.0, 0.1) ? 'gone' : 'STILL THERE', "\n";
$r->cmd('CONFIG', 'SET', 'timeout', '0');
$td = $lock->lock('d', 60000);
var_dump(is_string($td) && $r->get('lock:d') === $td);
$list = $ours();
var_dump(count($list) === 1 && $list[0]['id'] !== $before[0]['id']);
var_dump($lock->unlock('d', $td), $r->exists('lock:d'));
?>
--EXPECT--
bool(true)
-- CLIENT KILL ADDR, then unlock
int(1)
gone
bool(true)
int(0)
our connections: 1
bool(true)
opened: 1
-- killed again (all clients but the test's), then lock
int(1)
gone
bool(true)
bool(true)
our connections: 1
bool(true)
opened: 2
array(1) {
  [0]=>
  string(6) "lock:b"
}
-- killed between acquireLock and releaseLock (another object, same pool)
bool(true)
gone
bool(true)
int(0)
our connections: 1
bool(true)
array(0) {
}
-- closed by the server's idle timeout (CONFIG SET timeout 1)
gone
bool(true)
bool(true)
bool(true)
int(0)
