--TEST--
A second __construct is an Error ("Cannot call constructor twice") for both classes; the object keeps its servers, quorum and held locks
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_servers(3);
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r0 = new RlTestRedis(rl_test_server(0));
$r1 = new RlTestRedis(rl_test_server(1));
$r0->del('lock:t080', 'lock:t080b');
$r1->del('lock:t080', 'lock:t080b');

function attempt(string $what, callable $f): void
{
    try {
        $f();
        echo "$what: accepted\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}

// The crash of the hardening issue: a failed second construct, then a lock.
$l = new RedisLock(rl_test_server(0));
attempt('RedisLock again with a bad address', fn() => $l->__construct(''));
attempt('RedisLock again with bad options', fn() => $l->__construct(rl_test_server(1), ['bogus' => 1]));
attempt('RedisLock again, no arguments', fn() => $l->__construct());
attempt('RedisLock again, a type error', fn() => $l->__construct(1.5));
$t = $l->lock('t080', 30000);
var_dump(is_string($t), $r0->get('lock:t080') === $t);

// A successful-looking second construct to another server changes nothing:
// the held lock stays where it was taken and is released there.
var_dump($l->acquireLock('t080b', 30));
attempt('RedisLock again with a good address', fn() => $l->__construct(rl_test_server(1), ['prefix' => 'other:']));
var_dump($r0->exists('lock:t080b'), $r1->exists('lock:t080b'));
var_dump($l->releaseLock('t080b'), $r0->exists('lock:t080b'));
var_dump($l->unlock('t080', $t), $r0->exists('lock:t080'));

// RedLock: the list and the quorum stay those of the first construct.
$red = new RedLock([rl_test_server(0), rl_test_server(1), rl_test_server(2)], 10, 1);
attempt('RedLock again with an empty list', fn() => $red->__construct([]));
attempt('RedLock again with a bad element', fn() => $red->__construct([rl_test_server(0), 'host:']));
attempt('RedLock again with one node', fn() => $red->__construct([rl_test_server(0)]));
attempt('RedLock again, a type error', fn() => $red->__construct('x'));
// Node 0 alone is not a quorum of 3: another holder on nodes 1 and 2 wins.
$r1->set('lock:t080', 'someone', 'PX', 30000);
(new RlTestRedis(rl_test_server(2)))->set('lock:t080', 'someone', 'PX', 30000);
var_dump($red->lock('t080', 30000));
var_dump($r0->exists('lock:t080'));   // its own vote was undone
$r1->del('lock:t080');
(new RlTestRedis(rl_test_server(2)))->del('lock:t080');
$t = $red->lock('t080', 30000);
var_dump(is_string($t), $red->unlock('t080', $t));
?>
--EXPECT--
RedisLock again with a bad address: Error: Cannot call constructor twice
RedisLock again with bad options: Error: Cannot call constructor twice
RedisLock again, no arguments: Error: Cannot call constructor twice
RedisLock again, a type error: Error: Cannot call constructor twice
bool(true)
bool(true)
bool(true)
RedisLock again with a good address: Error: Cannot call constructor twice
int(1)
int(0)
bool(true)
int(0)
bool(true)
int(0)
RedLock again with an empty list: Error: Cannot call constructor twice
RedLock again with a bad element: Error: Cannot call constructor twice
RedLock again with one node: Error: Cannot call constructor twice
RedLock again, a type error: Error: Cannot call constructor twice
NULL
int(0)
bool(true)
bool(true)
