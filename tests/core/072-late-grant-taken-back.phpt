--TEST--
RedisLock: a grant whose reply comes after the TTL ran out (the server stopped meanwhile) is taken back, never returned; with a wait, the next try takes the lock with its full validity
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer();
$events = [];
$lock = new RedisLock($srv->addr(), ['timeout' => 5.0, 'fencing' => true,
    'logger' => function (string $level, string $message, array $ctx) use (&$events) {
        $events[] = "$level {$ctx['event']}";
    }]);
$t = $lock->lock('s072-warm', 1000);
$lock->unlock('s072-warm', $t);
$c = $srv->client();
$late = RedisLock::stats()['late_grants'];

// The server stops before our SET reaches it and resumes 800 ms later: it
// grants a 300 ms lock, whose reply arrives when 300 ms have long passed.
// (a shell, not a PHP child: under valgrind a PHP child takes seconds to start)
$resumeLater = fn() => proc_open(['sh', '-c', 'sleep 0.8; kill -CONT ' . $srv->pid()], [], $pipes);

echo "-- no wait: the late grant is not returned\n";
$srv->pause();
$child = $resumeLater();
$t1 = $lock->lock('s072', 300);
proc_close($child);
$srv->resume();
echo "lock(): ", var_export($t1, true), "\n";
echo "taken back on the server: ", $c->exists('lock:s072') === 0 ? 'yes' : 'no (PTTL ' . $c->pttl('lock:s072') . ')', "\n";
echo "isHeld: ", var_export($lock->isHeld('s072'), true), ", fencingToken: ", var_export($lock->fencingToken('s072'), true), "\n";
echo "counted: ", RedisLock::stats()['late_grants'] - $late, "\n";
echo "logged: ", implode(', ', array_slice($events, -1)), "\n";

echo "-- with a wait: the late grant is taken back and the next try wins\n";
$srv->pause();
$child = $resumeLater();
$t2 = $lock->lock('s072b', 300, 3.0);
$valid = $lock->getValidity('s072b') > 0 ? 'yes' : 'no';
$fence = is_int($lock->fencingToken('s072b')) ? 'a number' : 'null';
$held = $c->get('lock:s072b') === $t2 ? 'yes' : 'no';
$released = $lock->unlock('s072b', $t2);
proc_close($child);
$srv->resume();
echo "lock(): ", is_string($t2) ? 'a token' : var_export($t2, true), "\n";
echo "validity left: $valid, fencingToken: $fence\n";
echo "held on the server by it: $held\n";
echo "counted: ", RedisLock::stats()['late_grants'] - $late, "\n";
var_dump($released);

echo "-- a lock already held: a late re-entrant refresh keeps the hold, its validity reported as over\n";
$t3 = $lock->lock('s072c', 60000);
$srv->pause();
$child = $resumeLater();
$again = $lock->lock('s072c', 300);                 // re-entrant: the refresh's reply comes late
$state = [var_export($lock->isHeld('s072c'), true), $lock->getValidity('s072c'), var_export($lock->fencingToken('s072c'), true)];
proc_close($child);
$srv->resume();
echo "lock() again: ", $again === $t3 ? 'the same token' : var_export($again, true), "\n";
echo "isHeld: {$state[0]}, validity: {$state[1]}, fencingToken: {$state[2]}\n";
var_dump($lock->extend('s072c', $t3, 60000));       // extended: trusted again
echo "validity after extend: ", $lock->getValidity('s072c') > 0 ? 'yes' : 'no', "\n";
var_dump($lock->unlock('s072c', $t3), $lock->unlock('s072c', $t3));
echo "locks left: ", $c->exists('lock:s072', 'lock:s072b', 'lock:s072c'), "\n";
?>
--EXPECT--
-- no wait: the late grant is not returned
lock(): NULL
taken back on the server: yes
isHeld: false, fencingToken: NULL
counted: 1
logged: warning late
-- with a wait: the late grant is taken back and the next try wins
lock(): a token
validity left: yes, fencingToken: a number
held on the server by it: yes
counted: 2
bool(true)
-- a lock already held: a late re-entrant refresh keeps the hold, its validity reported as over
lock() again: the same token
isHeld: false, validity: 0, fencingToken: NULL
bool(true)
validity after extend: yes
bool(true)
bool(true)
locks left: 0
