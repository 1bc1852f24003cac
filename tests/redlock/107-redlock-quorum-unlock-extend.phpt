--TEST--
RedLock: unlock is true when a quorum released; extend counts only when a quorum extended
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$servers = rl_test_servers(3);
$c = array_map(fn($s) => new RlTestRedis("{$s['host']}:{$s['port']}"), $servers);
$lock = new RedLock($servers, 0, 1);
// lock() returns at the quorum: the third node's SET may land a moment later
$onAll = fn($t) => rl_wait_until(fn() => count(array_filter($c, fn($r) => $r->get('lock:rl107') === $t)) === 3, 5);

$t = $lock->lock('rl107', 10000);
$onAll($t);
$c[0]->del('lock:rl107');                       // one node lost it (say, restarted)
var_dump($lock->extend('rl107', $t, 30000));      // 2 of 3 extended: a quorum
echo "ttl on node 1: ", $c[1]->pttl('lock:rl107') > 20000 ? 'extended' : 'not extended', "\n";
$c[1]->set('lock:rl107', 'someone-else', 'PX', 10000); // and another one now holds it for someone else
var_dump($lock->extend('rl107', $t, 30000));      // only 1 of 3: no quorum
var_dump($lock->unlock('rl107', $t));             // only node 2 released: false
echo "someone else's key kept: ", $c[1]->get('lock:rl107'), "\n";
echo "ours gone from node 2: ", $c[2]->exists('lock:rl107'), "\n";
var_dump($lock->getValidity('rl107'));            // no longer held by this object
$c[1]->del('lock:rl107');

$t = $lock->lock('rl107', 10000);
$onAll($t);
$c[2]->del('lock:rl107');
var_dump($lock->unlock('rl107', $t));             // 2 of 3 released: true
var_dump($lock->unlock('rl107', $t));             // nothing left
var_dump($lock->extend('rl107', 'not-a-token', 1000));
?>
--EXPECT--
bool(true)
ttl on node 1: extended
bool(false)
bool(false)
someone else's key kept: someone-else
ours gone from node 2: 0
int(0)
bool(true)
bool(false)
bool(false)
