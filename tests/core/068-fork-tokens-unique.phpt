--TEST--
Tokens after fork(): parent and child never hand out the same token (random bytes are not shared across a fork), and the child's tokens name a party of its own
--EXTENSIONS--
redislock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$lock = new RedisLock(rl_test_server(0));
$t = $lock->lock('t068-warm', 1000);      // the process now has random bytes in hand
$lock->unlock('t068-warm', $t);
$file = tempnam(sys_get_temp_dir(), 't068');
$pid = pcntl_fork();
$mine = [];
for ($i = 0; $i < 10; $i++) {
    $mine[] = $tok = $lock->lock("t068-$pid-$i", 1000);
    $lock->unlock("t068-$pid-$i", $tok);
}
if ($pid === 0) {
    file_put_contents($file, implode("\n", $mine));
    exit(0);
}
pcntl_waitpid($pid, $status);
$child = explode("\n", (string)file_get_contents($file));
unlink($file);
echo "child tokens: ", count($child), ", parent tokens: ", count($mine), "\n";
echo "shared: ", count(array_intersect($child, $mine)), "\n";
// the first 16 characters name the process (deadlock detection): the child's are its own
echo "the child's party: ", substr($child[0], 0, 16) !== substr($mine[0], 0, 16) ? 'its own' : 'the parent\'s', "\n";
?>
--EXPECT--
child tokens: 10, parent tokens: 10
shared: 0
the child's party: its own
