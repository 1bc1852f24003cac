--TEST--
Owners changing kind, when it fails or waits: a RedLock promotion refused by a quorum keeps the shared lock on every node (nothing taken back); a waiting promotion has the lock after the last other reader leaves (no wake comes: it looks again itself, every 200 ms); with option reentrant false, records of locks that expired are dropped (not one per owner for the object's life)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$servers = rl_test_servers(3);
foreach ($servers as $i => $s) {
    (new RlTestRedis(rl_test_server($i)))->del('lock:p802', rl_derived_key('lock:p802', 's'), 'lock:w802', 'lock:x802');
}

echo "-- a RedLock promotion refused by a quorum\n";
$rl = new RedLock($servers, 50, 1, ['reentrant' => false]);
// A quorum's yes decides: a node still connecting then (a busy host), or
// one whose NOSCRIPT reply had not come (its EVAL never sent), is left
// without the lock, which Redlock allows but this case must not have. So
// the connections are open first (a release waits for every node), and
// every node has the script (a lone node's call waits for its EVAL).
$rl->forceUnlock('p802');
foreach ($servers as $i => $s) {
    $one = new RedisLock(rl_test_server($i));
    $one->unlock('p802-warm', $one->lockShared('p802-warm', 1000));
}
var_dump($rl->lockShared('p802', 30000, 0.0, 'T'));
// the third node's reply may come after the decision: its lock is there
rl_wait_until(function () use ($servers) {
    foreach ($servers as $i => $s) {
        if (!(new RedisLock(rl_test_server($i)))->holds('p802', 'T')) {
            return false;
        }
    }
    return true;
}, 5.0);
// another reader on nodes 2 and 3 only: T alone on node 1
$others = [new RedisLock(rl_test_server(1)), new RedisLock(rl_test_server(2))];
foreach ($others as $o) {
    $o->lockShared('p802', 30000, 0.0, 'R');
}
var_dump($rl->lock('p802', 30000, 0.0, 'T'));                       // promoted on node 1 only: refused
$on = [];
foreach ($servers as $i => $s) {
    $on[] = (new RedisLock(rl_test_server($i)))->holds('p802', 'T') ? 'T' : '-';
}
echo "T holds it on: ", implode(' ', $on), "\n";                     // still on every node
var_dump($rl->holds('p802', 'T'), $rl->isHeld('p802'));
// a writer cannot get in anywhere
$w = new RedisLock(rl_test_server(0));
var_dump($w->lock('p802', 1000));
var_dump($rl->unlock('p802', 'T'));
foreach ($others as $o) {
    $o->unlock('p802', 'R');
}
var_dump($w->lock('p802', 1000) !== null);

echo "-- a waiting promotion\n";
$l = new RedisLock(rl_test_server(0), ['reentrant' => false]);
$r = new RlTestRedis(rl_test_server(0));
var_dump($l->lockShared('w802', 30000, 0.0, 'T'));
// the other reader leaves once the promotion waits (its lock() has begun:
// told by a key the test sets just before); no wake comes, it looks again
// itself (every 200 ms: unit_wait.c, on a clock of its own; here counts,
// not an elapsed time, which a busy machine bends). The wait is long: only
// a failure waits it out. A round where the reader left before the
// promotion's first look (it did not wait) is run again (at most 3, logged)
for ($round = 1; ; $round++) {
    $child = rl_php_child_start('
        $l = new RedisLock(' . var_export(rl_test_server(0), true) . ');
        $l->lockShared("w802", 30000, 0.0, "R");
        echo "in\n";
        $r = new RlTestRedis(' . var_export(rl_test_server(0), true) . ');
        rl_wait_until(fn() => $r->exists("go802") === 1, 60.0);
        $l->unlock("w802", "R");
    ');
    rl_wait_until(fn() => $r->cmd('ZSCORE', rl_derived_key('lock:w802', 's'), 'R') !== null, 30.0);
    $before = RedisLock::stats();
    $r->set('go802', '1');
    $promoted = $l->lock('w802', 30000, 30.0, 'T');
    $after = RedisLock::stats();
    $child->wait(30);
    $r->del('go802');
    $waited = $after['waits_rechecked'] > $before['waits_rechecked'];
    if ($waited || $promoted !== 'T' || $round === 3) {
        break;
    }
    rl_test_note("w802: round $round: the reader left before the promotion's first look (no wait): run again");
    $l->unlock('w802', 'T');
    $l->lockShared('w802', 30000, 0.0, 'T');
}
var_dump($promoted);
echo "promoted after the other reader left, by its own looks (not woken): ",
    $waited && $after['waits_woken'] === $before['waits_woken'] ? 'yes' : 'NO ' . json_encode(array_map(fn($k) => $after[$k] - $before[$k], ['waits_woken' => 'waits_woken', 'waits_rechecked' => 'waits_rechecked'])), "\n";
var_dump($r->get('lock:w802'));
$l->unlock('w802', 'T');

echo "-- expired records dropped\n";
$m = new RedisLock(rl_test_server(0), ['reentrant' => false]);
for ($i = 0; $i < 300; $i++) {
    $m->lock("e802-$i", 1, 0.0, "owner-$i");                           // 1 ms: expired at once
}
$before = RedisLock::stats();
unset($m);                                                          // auto-release sends what is recorded
$after = RedisLock::stats();
$sent = $after['expired'] + $after['auto_released'] - $before['expired'] - $before['auto_released'];
// swept when more were added than the last sweep left: at most about 2 x 65
echo "records left at destruction: ", $sent < 150 ? 'fewer than half' : $sent, "\n";
?>
--EXPECT--
-- a RedLock promotion refused by a quorum
string(1) "T"
NULL
T holds it on: T T T
bool(true)
bool(true)
NULL
bool(true)
bool(true)
-- a waiting promotion
string(1) "T"
string(1) "T"
promoted after the other reader left, by its own looks (not woken): yes
string(1) "T"
-- expired records dropped
records left at destruction: fewer than half
