--TEST--
RedLock once(): a node the rebuilder never reached (its key missing there: the node's reply came after the quorum decided, or it lost the key) does not tell a waiter the work is done; the waiter waits for the rebuild's end and gets its result (one node's DONE was taken for the work's end: the waiter returned ONCE_WAITED with null while the rebuild ran)
--EXTENSIONS--
redislock
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--FILE--
<?php
require __DIR__ . '/../woken.inc';

$servers = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$addrs = array_map(fn($s) => $s->addr(), $servers);
$c = $servers[0]->client();
$slow = rl_under_valgrind();
$rebuilder = rl_php_child_start('
    $l = new RedLock(' . var_export($addrs, true) . ', 200, 3);
    $c = new RlTestRedis(' . var_export($addrs[0], true) . ');
    $r = $l->once("g235", function () use ($c) {
        $c->cmd("SET", "g235:running", "1");
        while ($c->cmd("GET", "g235:go") === null) {
            usleep(5000);
        }
        return "page 1";
    }, 600000, 1.0);
    echo "rebuilder: ", $r === RedLock::ONCE_RAN ? "ran" : $r, "\n";');
rl_wait_until(fn() => $c->get('g235:running') === '1', $slow ? 100 : 30);
// one node has no key of the rebuild: the third, or already the one whose
// vote came late on a busy machine (the rebuilder won with the other two;
// deleting a key of those would take its quorum away)
$holding = array_values(array_filter($servers, fn($s) => $s->client()->get('lock:g235') !== null));
if (count($holding) === 3) {
    $servers[2]->client()->del('lock:g235');
    $holding = [$servers[0], $servers[1]];
}
$waiter = rl_php_child_start('
    $l = new RedLock(' . var_export($addrs, true) . ', 200, 3);
    $c = new RlTestRedis(' . var_export($addrs[0], true) . ');
    $r = $l->once("g235", fn() => "page 2", 600000, ' . ($slow ? 200.0 : 60.0) . ', $value);
    echo "waiter: ", [0 => "timed out", 1 => "ran", 2 => "waited"][$r], " with ", var_export($value, true),
        ", the rebuild over by then: ", $c->cmd("GET", "g235:go") === "1" ? "yes" : "no", "\n";');
// the waiter is queued on the two nodes the rebuilder holds, blocked there
$blocked = rl_wait_until(fn() => count($holding) === 2 && rl_woken_blocked($holding[0]->client()) >= 1
                                 && rl_woken_blocked($holding[1]->client()) >= 1,
    $slow ? 100 : 30);
echo "waiter blocked on the rebuilder's nodes: ", var_export($blocked, true), "\n";
// longer than its 2 s recheck: a waiter told done by the third node alone has returned by now
$early = rl_wait_until(fn() => !$waiter->isRunning(), 3.0);
echo "the waiter returned before the rebuild's end: ", var_export($early, true), "\n";
$c->set('g235:go', '1');
echo $waiter->wait($slow ? 200 : 60)[1], $rebuilder->wait($slow ? 200 : 60)[1];
?>
--EXPECT--
waiter blocked on the rebuilder's nodes: true
the waiter returned before the rebuild's end: false
waiter: waited with 'page 1', the rebuild over by then: yes
rebuilder: ran
