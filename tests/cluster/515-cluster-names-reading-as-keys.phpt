--TEST--
Cluster: names that read as another lock's keys: the resource "acct\0f{T}" (acct's fence counter as a raw key, in acct's slot) is a lock of its own there too: isLocked(), inspect() and forceUnlock() of it leave acct's counter alone (fences 1, 2, 3), and the logger names it by its name; names that never aliased a key keep theirs, so a lock an older build holds still excludes; locks() lists names with a NUL and the escaped ones by their names
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';
require __DIR__ . '/../names.inc';

$c = new RlTestCluster(3, 0);
$l = new RedisLock(['cluster' => $c->seeds()], ['fencing' => true] + rl_names_logger());
rl_names_scenario($l, 'acct513', fn(string ...$cmd) => $c->cmd($c->masterFor($cmd[1]), ...$cmd));
rl_names_listed($l, 'c513');
?>
--EXPECT--
isLocked(crafted): false
inspect(crafted): free/NULL, its key the counter: no
forceUnlock(crafted): false
lock(crafted): taken, its fence: 1, acct held meanwhile: false
logged as: its name
forceUnlock(crafted) while held: true
acct's fences: 1 2 3
held by an older build: acct513\0b: key kept true, lock() NULL, isLocked true
held by an older build: acct513{x: key kept true, lock() NULL, isLocked true
held by an older build: {t}acct513\0b: key kept true, lock() NULL, isLocked true
locks(): every one, by its name
