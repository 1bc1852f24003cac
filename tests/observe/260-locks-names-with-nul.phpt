--TEST--
locks() and the redislock command's list show names that hold a NUL byte ("a\0b", one ending in NUL) and names whose raw key reads as another lock's key (by their names), on one node and on a RedLock; derived keys (a fence counter) stay out
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--FILE--
<?php
require __DIR__ . '/../names.inc';
require __DIR__ . '/../cli.inc';

$s = new RlTestServer();
$l = new RedisLock($s->addr(), ['fencing' => true]);
rl_names_listed($l, 'n255');

$t = $l->lock("n255-cli\0x", 30000);
[$rc, $out] = rl_cli('-s', $s->addr(), 'list', 'n255-cli*');
$rows = array_slice(explode("\n", trim($out)), 1);
echo "list: exit $rc, ", count($rows), " row(s), ",
    count($rows) === 1 && preg_match('/^n255-cli\S+x +\S+ +lock /', $rows[0]) ? 'the name with its NUL shown' : "NO: $out", "\n";
$l->unlock("n255-cli\0x", $t);

$nodes = [new RlTestServer(), new RlTestServer(), new RlTestServer()];
$rl = new RedLock(array_map(fn($n) => $n->addr(), $nodes), 10, 3, ['fencing' => true]);
rl_names_listed($rl, 'r255');
?>
--EXPECT--
locks(): every one, by its name
list: exit 0, 1 row(s), the name with its NUL shown
locks(): every one, by its name
