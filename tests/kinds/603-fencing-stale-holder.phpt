--TEST--
Fencing: a holder SIGSTOPped past its TTL loses the lock to another; resumed, its write to a store that refuses smaller numbers (a Lua script) is refused, the new holder's is kept (RedisLock and RedLock)
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

// The protected store: a write carries a fencing number and is refused when
// a larger one has been seen.
const STORE = "local seen = tonumber(redis.call('get', KEYS[1]) or '0') "
    . "if tonumber(ARGV[1]) < seen then return 0 end "
    . "redis.call('set', KEYS[1], ARGV[1]) redis.call('set', KEYS[2], ARGV[2]) return 1";

$store = new RlTestRedis(rl_test_server(0));
$code = <<<'PHP'
[, $kind, $servers, $storeAddr, $go] = $argv;
$servers = json_decode($servers, true);
$lock = $kind === 'redlock'
    ? new RedLock($servers, 10, 1, ['fencing' => true])
    : new RedisLock($servers[0], ['fencing' => true]);
$t = $lock->lock("f603-$kind", 300);
$fence = $lock->fencingToken("f603-$kind");
echo "holding $fence\n";
while (!file_exists($go)) usleep(5000);   // stopped here, past the TTL
$store = new RlTestRedis($storeAddr);
echo $store->cmd('EVAL', STORE, 2, "f603-seen-$kind", "f603-data-$kind", (string)$fence, 'from the stale holder') ? "write kept\n" : "write refused\n";
PHP;

foreach (['redislock' => rl_test_servers(1), 'redlock' => rl_test_servers(3)] as $kind => $servers) {
    $store->del("f603-seen-$kind", "f603-data-$kind");
    $go = tempnam(sys_get_temp_dir(), 'go');
    unlink($go);
    $child = rl_php_child_start("const STORE = " . var_export(STORE, true) . ";\n"
        . '$argv = ' . var_export(['-', $kind, json_encode($servers), rl_test_server(0), $go], true) . ';' . $code);
    rl_wait_until(fn() => str_contains($child->output(), 'holding'), 60.0);
    $child->signal(SIGSTOP);
    $old = (int)substr(trim($child->output()), 8);

    // its TTL runs out while it is stopped: another takes the lock
    $lock = $kind === 'redlock'
        ? new RedLock($servers, 10, 1, ['fencing' => true])
        : new RedisLock($servers[0], ['fencing' => true]);
    $t = $lock->lock("f603-$kind", 10000, 5.0);
    $new = $lock->fencingToken("f603-$kind");
    echo "$kind: new holder's number is larger: ", var_export($new > $old, true), "\n";
    echo "$kind: new holder writes: ", $store->cmd('EVAL', STORE, 2, "f603-seen-$kind", "f603-data-$kind", (string)$new, 'from the new holder'), "\n";

    touch($go);
    $child->signal(SIGCONT);
    [$exit, $out, $err] = $child->wait(60);
    echo "$kind: stale holder: ", trim(substr($out, strpos($out, "\n") + 1)), $err !== '' ? " ($err)" : '', "\n";
    echo "$kind: data: ", $store->get("f603-data-$kind"), "\n";
    $lock->unlock("f603-$kind", $t);
    unlink($go);
    $store->del("f603-seen-$kind", "f603-data-$kind");
}
?>
--EXPECT--
redislock: new holder's number is larger: true
redislock: new holder writes: 1
redislock: stale holder: write refused
redislock: data: from the new holder
redlock: new holder's number is larger: true
redlock: new holder writes: 1
redlock: stale holder: write refused
redlock: data: from the new holder
