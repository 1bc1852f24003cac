--TEST--
200 refused re-constructs (persistent => false) leave the process's open file descriptors unchanged
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_servers(3);
if (!is_dir('/proc/self/fd')) die('skip needs /proc/self/fd');
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

function fds(): int
{
    return count(scandir('/proc/self/fd')) - 2;
}

function cycle(RedisLock|RedLock $l): void
{
    $t = $l->lock('t081', 10000);
    if (!is_string($t) || !$l->unlock('t081', $t)) {
        echo "lock/unlock failed\n";
    }
}

$opts = ['persistent' => false, 'logger' => fn() => null];
$single = new RedisLock(rl_test_server(0), $opts);
$red = new RedLock(rl_test_servers(3), 10, 1, $opts);
cycle($single);
cycle($red);
$before = fds();
$refused = 0;
for ($i = 0; $i < 200; $i++) {
    try {
        $single->__construct(rl_test_server(0), $opts);
    } catch (Error $e) {
        $refused++;
    }
    try {
        $red->__construct(rl_test_servers(3), 10, 1, $opts);
    } catch (Error $e) {
        $refused++;
    }
    cycle($single);
    cycle($red);
}
$after = fds();
echo "refused: $refused\n";
echo "fds before: ", $before > 0 ? 'some' : 'none', ", growth: ", $after - $before, "\n";
?>
--EXPECT--
refused: 400
fds before: some, growth: 0
