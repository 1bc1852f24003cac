--TEST--
A \Redis subclass given as the server whose getHost() calls __construct on the object being constructed: refused (Error), for both classes
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_servers(3);
rl_skip_unless_phpredis();
?>
--EXTENSIONS--
redislock
redis
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

/** Looks connected to shared server $i; getHost() meddles with the lock object being constructed. */
class T083Redis extends Redis
{
    public static bool $catch = false;

    public function __construct(private int $i) {}
    public function getHost(): string
    {
        foreach (debug_backtrace(DEBUG_BACKTRACE_PROVIDE_OBJECT) as $frame) {
            $obj = $frame['object'] ?? null;
            if ($obj instanceof RedisLock || $obj instanceof RedLock) {
                $args = $obj instanceof RedisLock ? [rl_test_server(2)] : [[rl_test_server(2)]];
                try {
                    $obj->__construct(...$args);
                    echo "  inner __construct: accepted\n";
                } catch (Error $e) {
                    echo "  inner __construct: ", get_class($e), ': ', $e->getMessage(), "\n";
                    if (!self::$catch) {
                        throw $e;
                    }
                }
                break;
            }
        }
        return rl_test_host();
    }
    public function getPort(): int { return rl_test_port($this->i); }
    public function getDbNum(): int { return 0; }
    public function getAuth(): mixed { return null; }
}

$r = [new RlTestRedis(rl_test_server(0)), new RlTestRedis(rl_test_server(1)), new RlTestRedis(rl_test_server(2))];
foreach ($r as $c) {
    $c->del('lock:t083');
}
function where(array $r): string
{
    return implode(',', array_map(fn($c) => $c->exists('lock:t083'), $r));
}

// The Error thrown inside getHost() reaches the caller of the outer constructor.
foreach (['RedisLock' => fn() => new RedisLock(new T083Redis(0)),
          'RedLock' => fn() => new RedLock([rl_test_server(0), new T083Redis(1)])] as $what => $f) {
    echo "$what, getHost() lets the Error through:\n";
    try {
        $f();
        echo "  constructed\n";
    } catch (Throwable $e) {
        echo "  outer: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}

// getHost() catches it: the outer constructor completes with its own servers.
T083Redis::$catch = true;
echo "RedisLock, getHost() catches the Error:\n";
$l = new RedisLock(new T083Redis(0));
$t = $l->lock('t083', 30000);
echo "  held on: ", where($r), "\n";
var_dump($l->unlock('t083', $t));
echo "RedLock, getHost() catches the Error:\n";
$red = new RedLock([rl_test_server(0), new T083Redis(1)], 10, 1);
// A quorum of 2 out of these 2 nodes: node 2 (the inner constructor's) is not one of them.
$r[1]->set('lock:t083', 'someone', 'PX', 30000);
var_dump($red->lock('t083', 30000));
$r[1]->del('lock:t083');
$t = $red->lock('t083', 30000);
echo "  held on: ", where($r), "\n";
var_dump($red->unlock('t083', $t));
?>
--EXPECT--
RedisLock, getHost() lets the Error through:
  inner __construct: Error: Cannot call constructor twice
  outer: Error: Cannot call constructor twice
RedLock, getHost() lets the Error through:
  inner __construct: Error: Cannot call constructor twice
  outer: Error: Cannot call constructor twice
RedisLock, getHost() catches the Error:
  inner __construct: Error: Cannot call constructor twice
  held on: 1,0,0
bool(true)
RedLock, getHost() catches the Error:
  inner __construct: Error: Cannot call constructor twice
NULL
  held on: 1,1,0
bool(true)
