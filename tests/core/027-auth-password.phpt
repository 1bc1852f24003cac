--TEST--
AUTH: the right password works; a wrong or missing one is a RedisLockConnectionException that never shows a password
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$pw = 'T027-right-Pa55word';
$wrongPw = 'T027-wrong-Pa55word';
$srv = new RlTestServer(['--requirepass', $pw]);
$c = $srv->client($pw);
$addr = $srv->addr();

function show(Throwable $e, string $addr, array $secrets): void
{
    $msg = $e->getMessage();
    echo get_class($e), ': ', str_replace($addr, 'ADDR', $msg), "\n";
    foreach ($secrets as $s) {
        if (str_contains($msg, $s) || str_contains((string)$e, $s)) {
            echo "  LEAKS A PASSWORD\n";
        }
    }
}

foreach ([true, false] as $persistent) {
    echo "persistent: ", var_export($persistent, true), "\n";
    // Right password first: a pooled, logged-in connection must not serve the others.
    $good = new RedisLock($addr, ['password' => $pw, 'persistent' => $persistent]);
    $t = $good->lock('t027', 30000);
    var_dump(is_string($t) && $c->get('lock:t027') === $t);

    foreach (['wrong password' => ['password' => $wrongPw], 'no password' => []] as $what => $opts) {
        echo "$what:\n";
        $bad = new RedisLock($addr, $opts + ['persistent' => $persistent]);
        foreach (['lock' => fn() => $bad->lock('t027b', 30000),
                  'unlock' => fn() => $bad->unlock('t027', $t),
                  'acquireLock' => fn() => $bad->acquireLock('t027b', 5)] as $call => $f) {
            try {
                $f();
                echo "  $call: no exception\n";
            } catch (RedisLockException $e) {
                echo "  $call: ";
                show($e, $addr, [$pw, $wrongPw]);
            }
        }
    }
    // The lock is untouched and the good object still works.
    var_dump($c->get('lock:t027') === $t);
    var_dump($c->exists('lock:t027b'));
    var_dump($good->unlock('t027', $t));
    var_dump($c->exists('lock:t027'));
}
?>
--EXPECTF--
persistent: true
bool(true)
wrong password:
  lock: RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
  unlock: RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
  acquireLock: RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
no password:
  lock: RedisLockConnectionException: Redis node ADDR: NOAUTH Authentication required.
  unlock: RedisLockConnectionException: Redis node ADDR: NOAUTH Authentication required.
  acquireLock: RedisLockConnectionException: Redis node ADDR: NOAUTH Authentication required.
bool(true)
int(0)
bool(true)
int(0)
persistent: false
bool(true)
wrong password:
  lock: RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
  unlock: RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
  acquireLock: RedisLockConnectionException: Redis node ADDR: AUTH refused: %s
no password:
  lock: RedisLockConnectionException: Redis node ADDR: NOAUTH Authentication required.
  unlock: RedisLockConnectionException: Redis node ADDR: NOAUTH Authentication required.
  acquireLock: RedisLockConnectionException: Redis node ADDR: NOAUTH Authentication required.
bool(true)
int(0)
bool(true)
int(0)
