--TEST--
Option "reentrant" false: one object serves many owners (a second lock() on a resource it holds is a conflict, the owner's own token refreshes without counting, each owner's lock released on its own and all at destruction); shared locks named by their owner, promoted when alone and demoted; bad values refused
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:n801', 'lock:n801-s', 'lock:n801-f');
$l = new RedisLock(rl_test_server(0), ['reentrant' => false]);

echo "-- no re-entry\n";
$t = $l->lock('n801', 5000);
var_dump($l->lock('n801', 5000));                                  // the same object: a conflict
var_dump($l->lock('n801', 5000, 0.2));                             // ... also waiting
var_dump($l->unlock('n801', $t), $r->exists('lock:n801'));         // one unlock frees it

echo "-- owners\n";
var_dump($l->lock('n801', 5000, 0.0, 'k1'), $l->lock('n801', 5000, 0.0, 'k2'));
var_dump($l->lock('n801', 60000, 0.0, 'k1'), $r->pttl('lock:n801') > 50000);   // refreshed, not counted
var_dump($l->unlock('n801', 'k2'), $l->unlock('n801', 'k1'), $r->exists('lock:n801'));
var_dump($l->unlock('n801', 'k1'));                                // once only

echo "-- shared, by owner\n";
var_dump($l->lockShared('n801-s', 5000, 0.0, 'r1'), $l->lockShared('n801-s', 5000, 0.0, 'r2'));
var_dump($l->lock('n801-s', 5000, 0.0, 'r1'));                     // promotion refused: r2 reads too
var_dump($l->holds('n801-s', 'r1'), $l->holds('n801-s', 'r2'));    // ... and both still hold it
var_dump($l->unlock('n801-s', 'r2'));
var_dump($l->lock('n801-s', 5000, 0.0, 'r1'), $r->get('lock:n801-s'));          // promoted
var_dump($r->exists(rl_derived_key('lock:n801-s', 's')));
var_dump($l->lockShared('n801-s', 5000, 0.0, 'r2'));               // a reader next to a writer: no
var_dump($l->lockShared('n801-s', 5000, 0.0, 'r1'), $r->get('lock:n801-s') === "\0shared");  // demoted
var_dump($l->lockShared('n801-s', 5000, 0.0, 'r2'));               // readers together again
var_dump($l->unlock('n801-s', 'r1'), $l->unlock('n801-s', 'r2'), $r->exists('lock:n801-s'));
echo "-- promotion while waiting, with fencing (every key of the script)\n";
$f = new RedisLock(rl_test_server(0), ['reentrant' => false, 'fencing' => true]);
var_dump($f->lockShared('n801-f', 5000, 0.0, 'w1'));
$n1 = $f->lock('n801-f', 5000, 0.0, 'x');                          // a lock on another owner's read: no
var_dump($n1, $f->lock('n801-f', 5000, 1.0, 'w1'), $r->get('lock:n801-f'));
var_dump($f->fencingToken('n801-f') >= 1);
var_dump($f->unlock('n801-f', 'w1'));

echo "-- auto-release of every owner's lock\n";
$m = new RedisLock(rl_test_server(0), ['reentrant' => false]);
$m->lock('n801', 5000, 0.0, 'a');
$m->lockShared('n801-s', 5000, 0.0, 'b');
$m->lockShared('n801-s', 5000, 0.0, 'c');
var_dump($m->isHeld('n801'), $m->isHeld('n801-s'), $m->getValidity('n801-s') > 4000);
unset($m);
var_dump($r->exists('lock:n801', 'lock:n801-s', rl_derived_key('lock:n801-s', 's')));
$s = RedisLock::stats();
var_dump($s['auto_released'] >= 3);

echo "-- RedLock\n";
$rl = new RedLock(rl_test_servers(3), 50, 2, ['reentrant' => false]);
$rt = $rl->lock('n801', 5000);
var_dump($rl->lock('n801', 5000), $rl->lock('n801', 5000, 0.0));
var_dump($rl->unlock('n801', $rt));
var_dump($rl->lockShared('n801-s', 5000, 0.0, 'q1'), $rl->lock('n801-s', 5000, 0.0, 'q1'));
var_dump($rl->lockShared('n801-s', 5000, 0.0, 'q2'), $rl->unlock('n801-s', 'q1'));

echo "-- bad values\n";
foreach ([1, 'no', null] as $v) {
    try {
        new RedisLock(rl_test_server(0), ['reentrant' => $v]);
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
foreach (['', "a\0b", str_repeat('x', 257)] as $bad) {
    try {
        $l->lockShared('n801-s', 5000, 0.0, $bad);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
-- no re-entry
NULL
NULL
bool(true)
int(0)
-- owners
string(2) "k1"
NULL
string(2) "k1"
bool(true)
bool(false)
bool(true)
int(0)
bool(false)
-- shared, by owner
string(2) "r1"
string(2) "r2"
NULL
bool(true)
bool(true)
bool(true)
string(2) "r1"
string(2) "r1"
int(0)
NULL
string(2) "r1"
bool(true)
string(2) "r2"
bool(true)
bool(true)
int(0)
-- promotion while waiting, with fencing (every key of the script)
string(2) "w1"
NULL
string(2) "w1"
string(2) "w1"
bool(true)
bool(true)
-- auto-release of every owner's lock
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
-- RedLock
NULL
NULL
bool(true)
string(2) "q1"
string(2) "q1"
NULL
bool(true)
-- bad values
TypeError: RedisLock::__construct(): Argument #2 ($options) option "reentrant" must be of type bool, int given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "reentrant" must be of type bool, string given
TypeError: RedisLock::__construct(): Argument #2 ($options) option "reentrant" must be of type bool, null given
RedisLock::lockShared(): Argument #4 ($token) must be null or between 1 and 256 bytes
RedisLock::lockShared(): Argument #4 ($token) must not contain NUL bytes
RedisLock::lockShared(): Argument #4 ($token) must be null or between 1 and 256 bytes
