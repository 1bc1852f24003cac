--TEST--
An owner's lock() promotes only its own shared lock held alone: a shared lock whose one holder is another owner is not made the caller's lock (trying or waiting), nor is it when both read; the reader keeps it, and once alone the caller's own read lock is promoted
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(1); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:p806');
$a = new RedisLock(rl_test_server(0));
$b = new RedisLock(rl_test_server(0));
$c = new RedisLock(rl_test_server(0));   // reads as writer-b: $b names that owner (an owner is its token, not an object)

echo "-- one reader, another owner asks for the lock\n";
var_dump($a->lockShared('p806', 30000, 0.0, 'reader-a'));
var_dump($b->lock('p806', 30000, 0.0, 'writer-b'));        // not its shared lock: held
var_dump($b->lock('p806', 30000, 0.3, 'writer-b'));        // waiting: still held when the wait ends
var_dump($b->holds('p806', 'reader-a'), $b->holds('p806', 'writer-b'), $r->get('lock:p806') === "\0shared");

echo "-- two readers: neither is promoted\n";
var_dump($c->lockShared('p806', 30000, 0.0, 'writer-b'));
var_dump($b->lock('p806', 30000, 0.0, 'writer-b'));
var_dump($b->holds('p806', 'reader-a'));

echo "-- alone again: the owner's own read lock is promoted\n";
var_dump($a->unlock('p806', 'reader-a'));
var_dump($b->lock('p806', 30000, 0.0, 'writer-b'), $r->get('lock:p806'));
var_dump($a->holds('p806', 'reader-a'));
var_dump($b->unlock('p806', 'writer-b'));
?>
--EXPECT--
-- one reader, another owner asks for the lock
string(8) "reader-a"
NULL
NULL
bool(true)
bool(false)
bool(true)
-- two readers: neither is promoted
string(8) "writer-b"
NULL
bool(true)
-- alone again: the owner's own read lock is promoted
bool(true)
string(8) "writer-b"
string(8) "writer-b"
bool(false)
bool(true)
