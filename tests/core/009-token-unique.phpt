--TEST--
lock(): tokens are unique over 1000 locks, random-looking, and none is reused
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$lock = new RedisLock(rl_test_server(0));
$r->del('lock:t009');

$n = 1000;
$tokens = [];
$bad = 0;
for ($i = 0; $i < $n; $i++) {
    $t = $lock->lock('t009', 30000);
    if (!is_string($t) || !preg_match('/^[0-9a-f]{32}$/', $t) || !$lock->unlock('t009', $t)) {
        $bad++;
    }
    $tokens[] = $t;
}
var_dump($bad);
var_dump(count($tokens));
var_dump(count(array_unique($tokens)));
var_dump($r->exists('lock:t009'));

// Random, not a time or a counter: every hex digit appears about equally
// often at every position (1000 samples of 16 values: expect ~62 each).
$hist = array_fill_keys(str_split('0123456789abcdef'), 0);
foreach ($tokens as $t) {
    foreach (str_split($t) as $c) {
        $hist[$c]++;
    }
}
$expected = $n * 32 / 16;
$skewed = array_filter($hist, fn($count) => abs($count - $expected) > $expected * 0.2);
var_dump($skewed);
// No shared prefix between consecutive tokens (a clock or counter would have one).
$sharedPrefix = 0;
for ($i = 1; $i < $n; $i++) {
    if (substr($tokens[$i], 0, 6) === substr($tokens[$i - 1], 0, 6)) {
        $sharedPrefix++;
    }
}
var_dump($sharedPrefix < 3);
?>
--EXPECT--
int(0)
int(1000)
int(1000)
int(0)
array(0) {
}
bool(true)
