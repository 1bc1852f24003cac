--TEST--
Native compare-and-delete, hostile answers to COMMAND INFO (through a proxy to a real server): an error, an odd shape, a lie (a command the server lacks: its release falls back to the script in the same call, and the connection stops using it), a reply nested beyond the guard (that socket is dropped, the connection asks no more): the locks work on every server, by the script
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/hostile.inc';

$srv = new RlTestServer();
$c = $srv->client();
$has = rl_native_delete($c);
// the lie names the command this server lacks
$lie = $has === 'delifeq' ? 'lie-delex' : 'lie-delifeq';

/** calls of $cmd since the last CONFIG RESETSTAT */
$calls = function (string $cmd) use ($c): int {
    $v = $c->info('commandstats')["cmdstat_$cmd"] ?? '';
    return preg_match('/calls=(\d+)/', $v, $m) ? (int)$m[1] : 0;
};
$errors = function () use ($c): int {
    $v = $c->info('errorstats')['errorstat_ERR'] ?? '';
    return preg_match('/count=(\d+)/', $v, $m) ? (int)$m[1] : 0;
};
$row = function (RlHostileServer $h): string {
    foreach (RedisLock::stats()['connections'] as $r) {
        if ($r['endpoint'] === $h->addr() && $r['role'] === 'command') {
            return $r['native_delete'];
        }
    }
    return '-';
};

// the release script loaded, so that each release by it is one EVALSHA
(new RedisLock($srv->addr()))->unlock('h642', 'no-such-token');

$servers = [];
foreach (['error', 'odd', 'lie'] as $kind) {
    $h = $servers[] = new RlHostileServer('garbage');
    $h->nativeAnswer($srv->port(), $kind === 'lie' ? $lie : $kind);
    $c->cmd('CONFIG', 'RESETSTAT');
    $l = new RedisLock($h->addr());
    $ok = 0;
    for ($i = 0; $i < 3; $i++) {
        $t = $l->lock("h642-$kind", 10000);
        $ok += is_string($t) && $l->unlock("h642-$kind", $t) && $c->exists("lock:h642-$kind") === 0;
    }
    // the lie: the first release sends the command the server lacks, is
    // told "unknown command", and goes as the script in the same call
    echo "$kind: $ok of 3 taken and released; by the script: ", $calls('evalsha'),
        "; native tried: ", $errors(), "; the connection says: ", $row($h), "\n";
}

// nested 9 deep: the guard refuses COMMAND INFO's reply and that socket.
// Whether the lock command before it counts depends on whether its reply
// was read before the refusal came: it is taken, or the call fails as a
// protocol error (code 5) and what it took is undone. Either way the
// connection asks no more, and the next calls work.
$h = $servers[] = new RlHostileServer('garbage');
$h->nativeAnswer($srv->port(), 'deep');
$c->cmd('CONFIG', 'RESETSTAT');
$l = new RedisLock($h->addr());
$t = null;
$why = 'none';
for ($i = 0; $i < 2 && $t === null; $i++) {
    try {
        $t = $l->lock('h642-deep', 10000);
    } catch (RedisLockException $e) {
        $why = $e->getCode() === 5 && str_ends_with($e->getMessage(), 'protocol error: arrays nested deeper than 7')
            ? 'a protocol error' : get_class($e) . ' (' . $e->getCode() . '): ' . $e->getMessage();
    }
}
echo "deep: taken: ", var_export(is_string($t), true), "; an exception on the way: ",
    in_array($why, ['none', 'a protocol error'], true) ? 'none or a protocol error' : $why, "\n";
var_dump($l->unlock('h642-deep', $t), $c->exists('lock:h642-deep'));
$t = $l->lock('h642-deep', 10000);
var_dump(is_string($t), $l->unlock('h642-deep', $t));
echo "by the script: ", $calls('evalsha') >= 2 ? 'yes' : 'no', "; native: ",
    $calls('delifeq') + $calls('delex'), "; the connection says: ", $row($h), "\n";
echo "keys left: ", count($c->keys('lock:*')), "\n";
?>
--EXPECT--
error: 3 of 3 taken and released; by the script: 3; native tried: 0; the connection says: none
odd: 3 of 3 taken and released; by the script: 3; native tried: 0; the connection says: none
lie: 3 of 3 taken and released; by the script: 3; native tried: 1; the connection says: none
deep: taken: true; an exception on the way: none or a protocol error
bool(true)
int(0)
bool(true)
bool(true)
by the script: yes; native: 0; the connection says: none
keys left: 0
