--TEST--
RedLock on 5 nodes: every combination of nodes already held by another owner (32 cases)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(5); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$servers = rl_test_servers(5);
$clients = array_map(fn($s) => new RlTestRedis("{$s['host']}:{$s['port']}"), $servers);
$lock = new RedLock($servers, 0, 1); // one try per lock() call
$wrong = [];
for ($mask = 0; $mask < 32; $mask++) {
    $key = "lock:rl101-$mask";
    $held = 0;
    foreach ($clients as $i => $c) {
        if ($mask & (1 << $i)) {
            $c->set($key, 'other-owner', 'PX', 30000);
            $held++;
        }
    }
    $token = $lock->lock("rl101-$mask", 10000);
    $expectWon = (5 - $held) >= 3;
    if (($token !== null) !== $expectWon) {
        $wrong[] = "mask $mask: won=" . var_export($token !== null, true);
    }
    // Whatever happened, the other owner's keys are untouched, and when the
    // lock was not won no node holds anything of ours.
    foreach ($clients as $i => $c) {
        $v = $c->get($key);
        if ($mask & (1 << $i)) {
            if ($v !== 'other-owner') $wrong[] = "mask $mask node $i: other owner's key changed to " . var_export($v, true);
        } elseif ($token === null && $v !== null) {
            $wrong[] = "mask $mask node $i: failed attempt left " . var_export($v, true);
        } elseif ($token !== null && $v !== $token
            // lock() decides at the quorum: a node's SET may still be on its way
            && !rl_wait_until(fn() => $c->get($key) === $token, 2.0)) {
            $wrong[] = "mask $mask node $i: won but the key holds " . var_export($v, true);
        }
    }
    if ($token !== null) {
        $lock->unlock("rl101-$mask", $token);
    }
    foreach ($clients as $c) {
        $c->del($key);
    }
}
echo $wrong ? implode("\n", $wrong) : "all 32 cases right", "\n";
?>
--EXPECT--
all 32 cases right
