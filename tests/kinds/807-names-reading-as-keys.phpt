--TEST--
Names that read as another lock's keys (one node): the resource "acct\0f{T}" (acct's fence counter as a raw key) is a lock of its own: isLocked(), inspect() and forceUnlock() of it leave acct's counter alone (fences 1, 2, 3), and the logger names it by its name; names that never aliased a key keep theirs, so a lock an older build holds still excludes
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../names.inc';

$s = new RlTestServer();
$l = new RedisLock($s->addr(), ['fencing' => true] + rl_names_logger());
rl_names_scenario($l, 'acct806', fn(string ...$cmd) => $s->client()->cmd(...$cmd));
?>
--EXPECT--
isLocked(crafted): false
inspect(crafted): free/NULL, its key the counter: no
forceUnlock(crafted): false
lock(crafted): taken, its fence: 1, acct held meanwhile: false
logged as: its name
forceUnlock(crafted) while held: true
acct's fences: 1 2 3
held by an older build: acct806\0b: key kept true, lock() NULL, isLocked true
held by an older build: acct806{x: key kept true, lock() NULL, isLocked true
held by an older build: {t}acct806\0b: key kept true, lock() NULL, isLocked true
