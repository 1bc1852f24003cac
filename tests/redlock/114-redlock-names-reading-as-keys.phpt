--TEST--
RedLock (3 nodes): names that read as another lock's keys: the resource "acct\0f{T}" (acct's fence counter as a raw key) is a lock of its own on every node: isLocked(), inspect() and forceUnlock() of it leave acct's counters alone (fences 1, 2, 3), and the logger names it by its name; names that never aliased a key keep theirs, so a lock an older build holds still excludes
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../names.inc';

$nodes = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$l = new RedLock(array_map(fn($s) => $s->addr(), $nodes), 10, 3, ['fencing' => true] + rl_names_logger());
rl_names_scenario($l, 'acct114', function (string ...$cmd) use ($nodes) {
    foreach ($nodes as $s) {
        $s->client()->cmd(...$cmd);
    }
});
?>
--EXPECT--
isLocked(crafted): false
inspect(crafted): free/NULL, its key the counter: no
forceUnlock(crafted): false
lock(crafted): taken, its fence: 1, acct held meanwhile: false
logged as: its name
forceUnlock(crafted) while held: true
acct's fences: 1 2 3
held by an older build: acct114\0b: key kept true, lock() NULL, isLocked true
held by an older build: acct114{x: key kept true, lock() NULL, isLocked true
held by an older build: {t}acct114\0b: key kept true, lock() NULL, isLocked true
