--TEST--
once() hands $rebuild's result to its waiters in $value, with the wake: a string of up to ONCE_VALUE_MAX bytes (binary-safe, empty too) reaches every waiter, on RedisLock and on RedLock (3 nodes); a longer string or another type stays the rebuilder's own, the waiters get null; after a throw, the waiter that takes over gets its own result and the others that one; a timed-out wait and a re-entrant call set $value too; synchronized() takes no fifth argument
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$control = new RlTestRedis(rl_test_server(0));
var_dump(RedisLock::ONCE_VALUE_MAX, RedLock::ONCE_VALUE_MAX);

/**
 * One rebuild held until "go" while $waiters callers queue, then let go.
 * $result: PHP code for what the rebuild returns ($n: which rebuild, from
 * 1; the first one throws when $throw). Prints what each caller got.
 */
function round_of(string $make, string $res, int $waiters, string $result, callable $queued, bool $throw = false): void
{
    global $control;
    $control->del("$res:runs", "$res:go");
    // The round waits (bounded) for events: the rebuild's start, then each
    // waiter in the queue, up to $patience s each. A caller's wait, and the
    // rebuild's TTL, outlast all of those waits together: however slowly
    // the children start (each a valgrind'd php in that pass, on a busy
    // machine), no queue entry ends and no lock lapses before "go", and
    // "go" ends the round.
    $patience = rl_under_valgrind() ? 100 : 30;
    $wait = $patience * ($waiters + 2);
    $ttl = ($wait + $patience) * 1000;
    $code = '
        $l = ' . $make . ';
        $c = new RlTestRedis(rl_test_server(0));
        $value = "unset";
        $r = $l->once(' . var_export($res, true) . ', function () use ($c) {
            $n = $c->cmd("INCR", ' . var_export("$res:runs", true) . ');
            while ($c->cmd("GET", ' . var_export("$res:go", true) . ') === null) {
                usleep(5000);
            }
            if ($n === 1 && ' . var_export($throw, true) . ') {
                throw new RuntimeException("rebuild failed");
            }
            return ' . $result . ';
        }, ' . $ttl . ', ' . $wait . '.0, $value);
        $shown = is_string($value) && strlen($value) > 16 ? "string of " . strlen($value) . " bytes"
            : str_replace("\n", "", var_export($value, true));
        echo [0 => "timed out", 1 => "ran", 2 => "waited"][$r], " with ", $shown, "\n";
    ';
    $children = [rl_php_child_start($code)];
    if (!rl_wait_until(fn() => $control->get("$res:runs") === '1', $patience)) {
        throw new RuntimeException('the rebuild did not start: ' . $children[0]->errorOutput());
    }
    for ($i = 1; $i <= $waiters; $i++) {
        $children[$i] = rl_php_child_start($code);
        if (!rl_wait_until(fn() => $queued() === $i, $patience)) {
            throw new RuntimeException("waiter $i did not queue (" . ($children[$i]->isRunning() ? 'still running'
                : 'it ended, saying: ' . trim($children[$i]->output())) . '): ' . $children[$i]->errorOutput());
        }
    }
    $control->set("$res:go", '1');
    $seen = [];
    foreach ($children as $child) {
        [$exit, $out, $err] = $child->wait($patience * 2);
        $said = str_contains($err, 'rebuild failed') ? 'threw' : (trim($out) !== '' ? trim($out) : "exit $exit: $err");
        $seen[$said] = ($seen[$said] ?? 0) + 1;
    }
    ksort($seen);
    foreach ($seen as $said => $n) {
        echo "  $said: $n\n";
    }
    $control->del("$res:runs", "$res:go");
}

$one = 'new RedisLock(rl_test_server(0))';
// resources of this run's own: a run that failed (and run-tests' rerun of
// it) leaves children's locks behind, with TTLs of minutes
$run = bin2hex(random_bytes(4));
$queuedOn = fn(string $res) => fn() => $control->cmd('LLEN', rl_derived_key("lock:$res", 'q'));
$cases = [
    'binary-safe' => '"page\0" . $n',
    'empty' => '""',
    'the largest' => 'str_repeat("x", RedisLock::ONCE_VALUE_MAX)',
    'one byte more' => 'str_repeat("x", RedisLock::ONCE_VALUE_MAX + 1)',
    'an array' => '["page", $n]',
    'nothing' => 'null',
];
foreach ($cases as $name => $result) {
    echo "-- RedisLock, $name\n";
    $res = "g234-$run-" . str_replace(' ', '-', $name);
    round_of($one, $res, 2, $result, $queuedOn($res));
}

echo "-- RedisLock, the first rebuild throws\n";
round_of($one, "g234-$run-throw", 3, '"page " . $n', $queuedOn("g234-$run-throw"), true);

echo "-- RedLock on 3 nodes\n";
$rs = [$control, new RlTestRedis(rl_test_server(1)), new RlTestRedis(rl_test_server(2))];
round_of('new RedLock(' . var_export(rl_test_servers(3), true) . ')', "g234-$run-redlock", 3, '"page " . $n',
    fn() => min(array_map(fn($r) => $r->cmd('LLEN', rl_derived_key("lock:g234-$run-redlock", 'q')), $rs)));

echo "-- not woken in time, and re-entrant\n";
$holder = new RedisLock(rl_test_server(0));
$t = $holder->lock('g234-held', 30000);
$l = new RedisLock(rl_test_server(0));
$value = 'old';
var_dump($l->once('g234-held', fn() => 'never', 10000, 0.2, $value), $value);
var_dump($holder->once('g234-held', fn() => 'inside', 10000, 1.0, $value), $value);
$holder->unlock('g234-held', $t);

echo "-- bad input\n";
try {
    $l->synchronized('g234-sync', fn() => 1, 10000, 1.0, $value);
} catch (ArgumentCountError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
try {
    $l->once('g234-ref', fn() => 1, 10000, 1.0, 'literal');
} catch (Error $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
?>
--EXPECTF--
int(8192)
int(8192)
-- RedisLock, binary-safe
  ran with 'page' . "\0" . '1': 1
  waited with 'page' . "\0" . '1': 2
-- RedisLock, empty
  ran with '': 1
  waited with '': 2
-- RedisLock, the largest
  ran with string of 8192 bytes: 1
  waited with string of 8192 bytes: 2
-- RedisLock, one byte more
  ran with string of 8193 bytes: 1
  waited with NULL: 2
-- RedisLock, an array
  ran with array (  0 => 'page',  1 => 1,): 1
  waited with NULL: 2
-- RedisLock, nothing
  ran with NULL: 1
  waited with NULL: 2
-- RedisLock, the first rebuild throws
  ran with 'page 2': 1
  threw: 1
  waited with 'page 2': 2
-- RedLock on 3 nodes
  ran with 'page 1': 1
  waited with 'page 1': 3
-- not woken in time, and re-entrant
int(0)
NULL
int(1)
string(6) "inside"
-- bad input
ArgumentCountError: RedisLock::synchronized() expects at most 4 arguments, 5 given
Error: %s
