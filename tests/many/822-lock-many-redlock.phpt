--TEST--
RedLock lockMany(): a quorum of all-or-nothing grants; a node that refused (one resource held there) keeps nothing of the call, nor do the others when the quorum is missed; a minority of nodes down still locks; a majority down throws naming the nodes; a waiter is woken at the release (its stats() count the wake)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$nodes = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$servers = array_map(fn($n) => $n->addr(), $nodes);
// timeouts a loaded machine's replies keep within (a killed node refuses at once)
$rl = new RedLock($servers, 10, 1, ['connect_timeout' => 5.0, 'timeout' => 5.0]);
$on = function (string $name) use ($nodes): string {
    return implode(' ', array_map(fn($n) => $n->client()->get("lock:$name") === null ? '-' : 'x', $nodes));
};

// a quorum's yes decides: a node still connecting, or whose NOSCRIPT reply
// had not come, would be left out (Redlock allows it; the cases below show
// every node): connections open, and on every node the scripts loaded of
// lockMany() and of lock() with a caller's token (c822 below)
$rl->forceUnlock('a822');
foreach ($servers as $s) {
    $w = new RedisLock($s);
    $w->unlockMany(['w822'], $w->lockMany(['w822'], 1000));
    $w->unlock('w822', $w->lock('w822', 1000, 0.0, 'warm-822'));
}

echo "-- a quorum\n";
$t = $rl->lockMany(['a822', 'b822'], 30000);
echo "a822: ", $on('a822'), ", b822: ", $on('b822'), "\n";
var_dump($rl->unlockMany(['a822', 'b822'], $t));

echo "-- held on one node: that node keeps nothing\n";
$one = new RedisLock($servers[0]);
$h = $one->lock('b822', 30000);
$t = $rl->lockMany(['a822', 'b822'], 30000);
echo "won: ", is_string($t) ? 'yes' : 'no', "; a822: ", $on('a822'), ", b822 ours on: ",
    implode(' ', array_map(fn($n) => $n->client()->get('lock:b822') === $t ? 'x' : '-', $nodes)), "\n";
var_dump($rl->unlockMany(['a822', 'b822'], $t));

echo "-- held on two nodes: nothing anywhere\n";
$two = new RedisLock($servers[1]);
$h2 = $two->lock('b822', 30000);
var_dump($rl->lockMany(['a822', 'b822'], 30000));
echo "a822: ", $on('a822'), "\n";

echo "-- a caller's token: a missed quorum takes back none of its earlier locks\n";
$own = new RedLock($servers, 10, 1);
$own->lock('c822', 30000, null, 'owner-822');
// b822 is held on nodes 0 and 1: granted on node 2 alone
var_dump((new RedLock($servers, 10, 1))->lockMany(['c822', 'b822'], 30000, 0.0, 'owner-822'));
echo "c822 still the owner's on: ", implode(' ', array_map(fn($n) => $n->client()->get('lock:c822') === 'owner-822' ? 'x' : '-', $nodes)), "\n";
$own->unlock('c822', 'owner-822');
(new RedisLock($servers[2]))->forceUnlock('b822');                 // what it took on node 2 (else its TTL ends it)

echo "-- woken at the release\n";
// the release comes once the waiter is queued; counted, not timed: its
// wait ends by the release's wake (stats(): waits_woken, no wake error).
// A round where its 2 s look came just as the holder let go (took them
// without a wake, no error) is run again, at most 3 in all.
for ($round = 1; ; $round++) {
    // held on nodes 0 and 1 (the first round: by $one and $two still)
    $held = [new RedisLock($servers[0]), new RedisLock($servers[1])];
    foreach ($held as $h) {
        $h->lock('b822', 30000);
    }
    $child = rl_php_child_start('
        $r = new RlTestRedis(' . var_export($servers[0], true) . ');
        rl_wait_until(fn() => $r->cmd("EXISTS", rl_derived_key("lock:b822", "q")) === 1, 60.0);
        (new RedisLock(' . var_export($servers[0], true) . '))->forceUnlock("b822");
        (new RedisLock(' . var_export($servers[1], true) . '))->forceUnlock("b822");
    ');
    $before = RedisLock::stats();
    $t = $rl->lockMany(['a822', 'b822'], 30000, 60.0);
    $after = RedisLock::stats();
    $child->wait(60);
    $woken = $after['waits_woken'] - $before['waits_woken'];
    $errors = $after['wake_errors'] - $before['wake_errors'];
    if (!is_string($t) || $woken >= 1 || $errors > 0 || $round === 3) {
        break;
    }
    rl_test_note("woken at the release: round $round took the locks at its own look as the holder let go (not woken): run again");
    $rl->unlockMany(['a822', 'b822'], $t);
}
echo "had them: ", is_string($t) ? 'yes' : 'no', "; woken: ", $woken >= 1 ? 'yes' : 'no', ", wake errors: $errors\n";
var_dump($rl->unlockMany(['a822', 'b822'], $t));

echo "-- a minority down\n";
$nodes[2]->kill();
$t = $rl->lockMany(['a822', 'b822'], 30000);
echo "won: ", is_string($t) ? 'yes' : 'no', "; a822 on the live nodes: ",
    $nodes[0]->client()->get('lock:a822') === $t && $nodes[1]->client()->get('lock:a822') === $t ? 'yes' : 'no', "\n";
var_dump($rl->unlockMany(['a822', 'b822'], $t));
echo "-- a majority down\n";
$nodes[1]->kill();
try {
    $rl->lockMany(['a822', 'b822'], 30000);
    echo "no exception\n";
} catch (RedisLockConnectionException $e) {
    echo get_class($e), ": names both dead nodes: ",
        str_contains($e->getMessage(), $servers[1]) && str_contains($e->getMessage(), $servers[2]) ? 'yes' : $e->getMessage(), "\n";
}
echo "keys left on the live node: ", count($nodes[0]->client()->keys('lock:*')), "\n";
?>
--EXPECT--
-- a quorum
a822: x x x, b822: x x x
bool(true)
-- held on one node: that node keeps nothing
won: yes; a822: - x x, b822 ours on: - x x
bool(true)
-- held on two nodes: nothing anywhere
NULL
a822: - - -
-- a caller's token: a missed quorum takes back none of its earlier locks
NULL
c822 still the owner's on: x x x
-- woken at the release
had them: yes; woken: yes, wake errors: 0
bool(true)
-- a minority down
won: yes; a822 on the live nodes: yes
bool(true)
-- a majority down
RedisLockConnectionException: names both dead nodes: yes
keys left on the live node: 0
