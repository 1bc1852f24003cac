--TEST--
An owner token shaped like a token that names its holder (32 hex, a space, a text) is refused (ValueError naming the argument) unless this process's lock() made it: inspect() and redislock show never show an owner's text as a holder's name; lock(), lockShared(), lockMany(), RedLock; a token this process made passes back and shows its name; other owner tokens as before
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(2); ?>
--FILE--
<?php
require __DIR__ . '/../cli.inc';

$server = rl_test_server(0);
$r = new RlTestRedis($server);
$r->del('lock:o806', 'lock:o806-b', 'lock:o806-c');
$l = new RedisLock($server, ['holder_names' => true]);
$crafted = str_repeat('0f', 16) . ' web-1 pid=1 POST /admin/grant';
$fromChild = trim(rl_php_child('echo (new RedisLock(' . var_export($server, true) . ', ["holder_names" => true]))->lock("o806-c", 1000);')[1]);

echo "-- refused\n";
$try = function (string $what, callable $f): void {
    try {
        $t = $f();
        echo "$what: taken (", $t === null ? 'null' : 'a token', ")\n";
    } catch (ValueError $e) {
        echo "$what: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
};
$try('lock()', fn() => $l->lock('o806', 10000, 0.0, $crafted));
echo "shown: ", json_encode($l->inspect('o806')['names']), "\n";
[$rc, $out] = rl_cli('-s', $server, 'show', 'o806');
echo "show: exit $rc, ", str_contains($out, 'held by') ? 'A HOLDER NAME: ' . explode('held by', $out)[1] : "no holder name\n";
$try('lockShared()', fn() => $l->lockShared('o806-1', 10000, 0.0, $crafted));
$try('lockMany()', fn() => $l->lockMany(['o806-2', 'o806-3'], 10000, 0.0, $crafted));
$try('RedLock lock()', fn() => (new RedLock([$server, rl_test_server(1)]))->lock('o806-4', 10000, 0.0, $crafted));
$try("another process's", fn() => $l->lock('o806-5', 10000, 0.0, $fromChild));
$r->del('lock:o806', 'lock:o806-1', rl_derived_key('lock:o806-1', 's'), 'lock:o806-2', 'lock:o806-3', 'lock:o806-4', 'lock:o806-5');

echo "-- accepted\n";
$mine = $l->lock('o806', 10000);
$try('a token this process made', fn() => $l->lock('o806-b', 10000, 0.0, $mine));
$names = $l->inspect('o806-b')['names'];
echo "its name: ", count($names) === 1 && str_starts_with($names[0], gethostname() . ' pid=' . getmypid()) ? 'this process' : 'NO: ' . json_encode($names), "\n";
$l->unlock('o806-b', $mine);
$l->unlock('o806', $mine);
foreach (['job-7', str_repeat('0f', 16), str_repeat('0f', 16) . ' ' . str_repeat('x', 200), 'AB' . substr($crafted, 2)] as $owner) {
    $try(strlen($owner) . ' bytes', fn() => $l->lock('o806', 10000, 0.0, $owner));
    echo "  shown: ", json_encode($l->inspect('o806')['names']), "\n";
    $l->unlock('o806', $owner);
}
?>
--EXPECT--
-- refused
lock(): ValueError: RedisLock::lock(): Argument #4 ($token) must not look like a token that names its holder (32 hex characters, a space, a name) unless this process's lock() made it
shown: []
show: exit 0, no holder name
lockShared(): ValueError: RedisLock::lockShared(): Argument #4 ($token) must not look like a token that names its holder (32 hex characters, a space, a name) unless this process's lock() made it
lockMany(): ValueError: RedisLock::lockMany(): Argument #4 ($token) must not look like a token that names its holder (32 hex characters, a space, a name) unless this process's lock() made it
RedLock lock(): ValueError: RedLock::lock(): Argument #4 ($token) must not look like a token that names its holder (32 hex characters, a space, a name) unless this process's lock() made it
another process's: ValueError: RedisLock::lock(): Argument #4 ($token) must not look like a token that names its holder (32 hex characters, a space, a name) unless this process's lock() made it
-- accepted
a token this process made: taken (a token)
its name: this process
5 bytes: taken (a token)
  shown: []
32 bytes: taken (a token)
  shown: []
233 bytes: taken (a token)
  shown: []
62 bytes: taken (a token)
  shown: []
