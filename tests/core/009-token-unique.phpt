--TEST--
lock(): tokens are unique over 1000 locks, and none is reused; their first 16 characters name the process (its party: the same in each of its tokens, another in another process's; 068: a forked child's), the other 16 are random-looking
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

// The party: the same in every token of this process, another in a child's.
echo "one party: ", count(array_unique(array_map(fn($t) => substr($t, 0, 16), $tokens))), "\n";
[$code, $out] = rl_php_child('echo (new RedisLock(' . var_export(rl_test_server(0), true) . '))->lock("c009", 1000);');
echo "a child's party differs: ", strlen($out) === 32 && substr($out, 0, 16) !== substr($tokens[0], 0, 16) ? 'yes' : "no ($out)", "\n";
// Random, not a time or a counter: every hex digit appears about equally
// often at every position of the random part (1000 samples of 16 values).
$hist = array_fill_keys(str_split('0123456789abcdef'), 0);
foreach ($tokens as $t) {
    foreach (str_split(substr($t, 16)) as $c) {
        $hist[$c]++;
    }
}
$expected = $n * 16 / 16;
$skewed = array_filter($hist, fn($count) => abs($count - $expected) > $expected * 0.2);
var_dump($skewed);
// No shared prefix between consecutive random parts (a clock or counter would have one).
$sharedPrefix = 0;
for ($i = 1; $i < $n; $i++) {
    if (substr($tokens[$i], 16, 6) === substr($tokens[$i - 1], 16, 6)) {
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
one party: 1
a child's party differs: yes
array(0) {
}
bool(true)
