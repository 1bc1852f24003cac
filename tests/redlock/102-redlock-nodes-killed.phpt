--TEST--
RedLock: a minority of nodes killed, lock and unlock work; a majority killed, RedisLockConnectionException (a killed node refuses at once: it does not hang)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$nodes = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$servers = array_map(fn($n) => $n->addr(), $nodes);
// timeouts a loaded machine's live nodes answer within (a killed node refuses at once)
$lock = new RedLock($servers, 10, 2, ['connect_timeout' => 5.0, 'timeout' => 5.0]);

$t = $lock->lock('rl102', 10000);
var_dump($lock->unlock('rl102', $t));

$nodes[2]->kill();
$t = $lock->lock('rl102', 10000);
echo "minority down, lock: ", is_string($t) ? 'won' : 'lost', "\n";
echo "on live nodes: ", $nodes[0]->client()->get('lock:rl102') === $t ? 'ours' : 'missing', ' ',
    $nodes[1]->client()->get('lock:rl102') === $t ? 'ours' : 'missing', "\n";
var_dump($lock->unlock('rl102', $t));
var_dump($nodes[0]->client()->exists('lock:rl102') + $nodes[1]->client()->exists('lock:rl102'));

$nodes[1]->kill();
$start = hrtime(true);
try {
    $lock->lock('rl102', 10000);
    echo "no exception\n";
} catch (RedisLockConnectionException $e) {
    $msg = $e->getMessage();
    echo get_class($e), "\n";
    echo "names both dead nodes: ", (str_contains($msg, $servers[1]) && str_contains($msg, $servers[2])) ? 'yes' : "no: $msg", "\n";
    echo "names the live one: ", str_contains($msg, $servers[0]) ? "yes: $msg" : 'no', "\n";
}
$elapsed = (hrtime(true) - $start) / 1e9;
// no bound tighter than a hang: how late a loaded machine runs us is not the product's
echo "did not hang: ", $elapsed < 30 ? 'yes' : "no ($elapsed s)", "\n";
echo "keys left on the live node: ", count($nodes[0]->client()->keys('lock:*')), "\n";
?>
--EXPECTF--
bool(true)
minority down, lock: won
on live nodes: ours ours
bool(true)
int(0)
RedisLockConnectionException
names both dead nodes: yes
names the live one: no
did not hang: yes
keys left on the live node: 0
