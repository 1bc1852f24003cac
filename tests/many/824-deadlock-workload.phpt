--TEST--
No false deadlock: 8 processes x 40 rounds over 6 resources with waits (two locks taken in a fixed order, lockMany() of 2 or 3, single locks) can never close a cycle: no RedisLockDeadlockException, no two holders of a resource at once (a checker in Redis), every round had its locks, nothing left behind
--EXTENSIONS--
redislock
--INI--
pcre.jit=0
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
[$procs, $rounds] = rl_under_valgrind() ? [4, 20] : [8, 40]; // valgrind: each child in its own valgrind
$names = array_map(fn($i) => "w824-$i", range(0, 5));
$r->del('overlaps824', 'rounds824', ...array_map(fn($n) => "in824:$n", $names));

$code = '
$server = ' . var_export($server, true) . ';
$names = ' . var_export($names, true) . ';
$l = new RedisLock($server);
$r = new RlTestRedis($server);
mt_srand(getmypid());
$enter = function (array $held) use ($r) {
    foreach ($held as $n) {
        if ($r->cmd("INCR", "in824:$n") !== 1) $r->cmd("INCR", "overlaps824");
    }
    usleep(mt_rand(500, 3000));
    foreach ($held as $n) $r->cmd("DECR", "in824:$n");
};
$deadlocks = $missed = 0;
for ($i = 0; $i < ' . $rounds . '; $i++) {
    $pick = array_rand(array_flip($names), mt_rand(2, 3));
    sort($pick);                                   // a fixed order: no cycle can close
    try {
        switch ($i % 3) {
        case 0:                                    // one after the other, in order
            $t1 = $l->lock($pick[0], 10000, 20.0);
            $t2 = $l->lock($pick[1], 10000, 20.0);
            if ($t1 === null || $t2 === null) { $missed++; }
            else { $enter([$pick[0], $pick[1]]); }
            if ($t2 !== null) $l->unlock($pick[1], $t2);
            if ($t1 !== null) $l->unlock($pick[0], $t1);
            break;
        case 1:                                    // all at once
            $t = $l->lockMany($pick, 10000, 20.0);
            if ($t === null) { $missed++; break; }
            $enter($pick);
            $l->unlockMany($pick, $t);
            break;
        default:                                   // one
            $t = $l->lock($pick[0], 10000, 20.0);
            if ($t === null) { $missed++; break; }
            $enter([$pick[0]]);
            $l->unlock($pick[0], $t);
        }
    } catch (RedisLockDeadlockException $e) {
        $deadlocks++;
        fwrite(STDERR, $e->getMessage() . "\n");
    }
    $r->cmd("INCR", "rounds824");
}
echo "$deadlocks $missed ", RedisLock::stats()["contended"], "\n";
';
$children = [];
for ($p = 0; $p < $procs; $p++) {
    $children[] = rl_php_child_start($code);
}
$deadlocks = $missed = $finished = $contended = 0;
foreach ($children as $c) {
    [$exit, $out, $err] = $c->wait(300);
    if ($exit === 0 && preg_match('/^(\d+) (\d+) (\d+)$/', trim($out), $m)) {
        $contended += (int)$m[3];
        $finished++;
        $deadlocks += (int)$m[1];
        $missed += (int)$m[2];
    }
    if ($err !== '') {
        echo "stderr: $err";
    }
}
echo "finished: ", $finished === $procs ? 'all' : $finished, "\n";
echo "rounds: ", (int)$r->get('rounds824') === $procs * $rounds ? 'all' : $r->get('rounds824'), "\n";
echo "deadlocks: $deadlocks, missed: $missed, overlaps: ", (int)$r->get('overlaps824'), "\n";
echo "waited (calls that found a lock held): ", $contended >= (rl_under_valgrind() ? 1 : $procs) ? 'many' : $contended, "\n";
$r->del('overlaps824', 'rounds824', ...array_map(fn($n) => "in824:$n", $names));
echo "edges left: ", $r->cmd('EXISTS', "lock:\0waits"), ", locks left: ", count($r->cmd('KEYS', 'lock:w824-*')), "\n";
?>
--EXPECT--
finished: all
rounds: all
deadlocks: 0, missed: 0, overlaps: 0
waited (calls that found a lock held): many
edges left: 0, locks left: 0
