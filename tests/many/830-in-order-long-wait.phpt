--TEST--
lockMany() one by one (fencing) whose wait for a later resource outlasts an earlier one's TTL: the earlier one, expired and taken by another meanwhile, is not reported held; the call takes it again and returns only when it holds every resource on the server
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
$r->del('lock:a830', 'lock:b830', 'go830');

// another client holds b830; once our a830 (300 ms) has run out under our
// wait, it takes a830 for itself for 400 ms and lets b830 go: by events
// on the server, not by time
$other = rl_php_child_start('
    $server = ' . var_export($server, true) . ';
    $l = new RedisLock($server);
    $r = new RlTestRedis($server);
    $b = $l->lock("b830", 30000);
    $r->set("go830", "1");
    rl_wait_until(fn() => $r->exists("lock:a830") === 1, 30.0, 0.001);
    rl_wait_until(fn() => $r->exists("lock:a830") === 0, 30.0, 0.001);
    echo "other took a830: ", $l->lock("a830", 400) !== null ? "yes" : "no", "\n";
    var_dump($l->unlock("b830", $b));
');
rl_wait_until(fn() => $r->exists('go830') === 1, 30.0);

$f = new RedisLock($server, ['fencing' => true]);
$t = $f->lockMany(['a830', 'b830'], 300, 30.0);
echo "lockMany: ", $t !== null ? "a token" : "null", "\n";
// what the server says the moment the call returned: both ours
var_dump($r->get('lock:a830') === $t, $r->get('lock:b830') === $t);
var_dump($f->getValidity('a830') > 0, $f->getValidity('b830') > 0);
// cleanup, not a check: the 300 ms may have run out by now under valgrind
// (the CI of d524697: unlockMany() false there, the checks above held)
$f->unlockMany(['a830', 'b830'], $t);
[$code, $out] = $other->wait(30.0);
echo $out;
$r->del('go830');
?>
--EXPECT--
lockMany: a token
bool(true)
bool(true)
bool(true)
bool(true)
other took a830: yes
bool(true)
