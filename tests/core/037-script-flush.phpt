--TEST--
SCRIPT FLUSH while a lock is held: unlock still works (one EVAL after NOSCRIPT), then EVALSHA again (the release script: where the server has DELEX or DELIFEQ, this test's user may not run them)
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$srv = new RlTestServer();
$c = $srv->client();

function stats(RlTestRedis $c): string
{
    $out = [];
    foreach (['set', 'eval', 'evalsha'] as $cmd) {
        $v = $c->info('commandstats')["cmdstat_$cmd"] ?? null;
        $out[] = "$cmd=" . ($v === null ? 'none' : (preg_match('/calls=(\d+)/', $v, $m) ? $m[1] : '?'));
    }
    return implode(' ', $out);
}

// This test is about the release script: where the server has its own
// compare-and-delete (DELEX, DELIFEQ), which unlock() would send instead
// (tests 640, 641), this user may not run it, so the warm-up's release
// turns it off on the connection and every release here is the script.
$native = array_intersect(array_map('strtolower', (array)$c->cmd('COMMAND', 'LIST', 'FILTERBY', 'PATTERN', 'del*')), ['delex', 'delifeq']);
$opts = [];
if ($native) {
    $c->cmd('ACL', 'SETUSER', 'u037', 'on', '>pw037', '~*', '&*', '+@all', ...array_map(fn($n) => "-$n", array_values($native)));
    $opts = ['username' => 'u037', 'password' => 'pw037'];
}
$lock = new RedisLock($srv->addr(), $opts);
// Warm up, so that the scripts are loaded before we flush them.
$t = $lock->lock('t037', 10000);
var_dump($lock->extend('t037', $t, 10000));
var_dump($lock->unlock('t037', $t));

echo "unlock after SCRIPT FLUSH:\n";
$t = $lock->lock('t037', 30000);
$c->scriptFlush();
$c->cmd('CONFIG', 'RESETSTAT');
var_dump($lock->unlock('t037', $t));
var_dump($c->exists('lock:t037'));
echo stats($c), "\n";

echo "three more cycles:\n";
for ($i = 0; $i < 3; $i++) {
    $t = $lock->lock('t037', 30000);
    var_dump($lock->unlock('t037', $t));
}
echo stats($c), "\n";

echo "extend after SCRIPT FLUSH:\n";
$t = $lock->lock('t037', 5000);
$c->scriptFlush();
$c->cmd('CONFIG', 'RESETSTAT');
var_dump($lock->extend('t037', $t, 30000));
var_dump($c->pttl('lock:t037') > 20000);
var_dump($lock->extend('t037', $t, 40000));
echo stats($c), "\n";

echo "a wrong token after SCRIPT FLUSH is still refused:\n";
$c->scriptFlush();
var_dump($lock->unlock('t037', 'not-the-token'));
var_dump($c->get('lock:t037') === $t);
var_dump($lock->unlock('t037', $t));
var_dump($c->exists('lock:t037'));
?>
--EXPECT--
bool(true)
bool(true)
unlock after SCRIPT FLUSH:
bool(true)
int(0)
set=none eval=1 evalsha=1
three more cycles:
bool(true)
bool(true)
bool(true)
set=3 eval=1 evalsha=4
extend after SCRIPT FLUSH:
bool(true)
bool(true)
bool(true)
set=none eval=1 evalsha=2
a wrong token after SCRIPT FLUSH is still refused:
bool(false)
bool(true)
bool(true)
int(0)
