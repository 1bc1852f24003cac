--TEST--
Every method of an object whose constructor has not finished is an Error, never a crash (both classes); PHP refuses newInstanceWithoutConstructor()
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

function calls(RedisLock|RedLock $o): array
{
    $cb = fn($token) => 'ran';
    $calls = [
        'lock' => fn() => $o->lock('t084', 1000),
        'lock with wait' => fn() => $o->lock('t084', 1000, 0.1),
        'unlock' => fn() => $o->unlock('t084', 'tok'),
        'extend' => fn() => $o->extend('t084', 'tok', 1000),
        'synchronized' => fn() => $o->synchronized('t084', $cb),
    ];
    if ($o instanceof RedisLock) {
        $calls['acquireLock'] = fn() => $o->acquireLock('t084', 1);
        $calls['releaseLock'] = fn() => $o->releaseLock('t084');
    } else {
        $calls['getValidity'] = fn() => $o->getValidity('t084');
    }
    return $calls;
}

function try_all(RedisLock|RedLock $o): void
{
    foreach (calls($o) as $what => $f) {
        try {
            $f();
            echo "    $what: accepted\n";
        } catch (Throwable $e) {
            echo "    $what: ", get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
}

/** A \Redis that looks connected; getHost() runs the methods on the object being constructed. */
class T084Redis extends Redis
{
    public function __construct(private int $i) {}
    public function getHost(): string
    {
        foreach (debug_backtrace(DEBUG_BACKTRACE_PROVIDE_OBJECT) as $frame) {
            $obj = $frame['object'] ?? null;
            if ($obj instanceof RedisLock || $obj instanceof RedLock) {
                echo "  ", get_class($obj), " inside its constructor:\n";
                try_all($obj);
                break;
            }
        }
        return rl_test_host();
    }
    public function getPort(): int { return rl_test_port($this->i); }
    public function getDbNum(): int { return 0; }
    public function getAuth(): mixed { return null; }
}

echo "RedisLock:\n";
$l = new RedisLock(new T084Redis(0));
echo "RedLock, the \\Redis first:\n";
$red = new RedLock([new T084Redis(0), rl_test_server(1)]);
echo "RedLock, the \\Redis second (one node already set up):\n";
$red2 = new RedLock([rl_test_server(0), new T084Redis(1), rl_test_server(2)]);

// Constructed, they work.
(new RlTestRedis(rl_test_server(0)))->del('lock:t084');
(new RlTestRedis(rl_test_server(1)))->del('lock:t084');
(new RlTestRedis(rl_test_server(2)))->del('lock:t084');
foreach ([$l, $red, $red2] as $o) {
    $t = $o->lock('t084', 30000);
    var_dump(is_string($t) && $o->unlock('t084', $t));
}

foreach (['RedisLock', 'RedLock'] as $class) {
    try {
        (new ReflectionClass($class))->newInstanceWithoutConstructor();
        echo "$class without constructor: made\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
RedisLock:
  RedisLock inside its constructor:
    lock: Error: RedisLock object is not initialized: its constructor has not finished
    lock with wait: Error: RedisLock object is not initialized: its constructor has not finished
    unlock: Error: RedisLock object is not initialized: its constructor has not finished
    extend: Error: RedisLock object is not initialized: its constructor has not finished
    synchronized: Error: RedisLock object is not initialized: its constructor has not finished
    acquireLock: Error: RedisLock object is not initialized: its constructor has not finished
    releaseLock: Error: RedisLock object is not initialized: its constructor has not finished
RedLock, the \Redis first:
  RedLock inside its constructor:
    lock: Error: RedLock object is not initialized: its constructor has not finished
    lock with wait: Error: RedLock object is not initialized: its constructor has not finished
    unlock: Error: RedLock object is not initialized: its constructor has not finished
    extend: Error: RedLock object is not initialized: its constructor has not finished
    synchronized: Error: RedLock object is not initialized: its constructor has not finished
    getValidity: Error: RedLock object is not initialized: its constructor has not finished
RedLock, the \Redis second (one node already set up):
  RedLock inside its constructor:
    lock: Error: RedLock object is not initialized: its constructor has not finished
    lock with wait: Error: RedLock object is not initialized: its constructor has not finished
    unlock: Error: RedLock object is not initialized: its constructor has not finished
    extend: Error: RedLock object is not initialized: its constructor has not finished
    synchronized: Error: RedLock object is not initialized: its constructor has not finished
    getValidity: Error: RedLock object is not initialized: its constructor has not finished
bool(true)
bool(true)
bool(true)
ReflectionException: Class RedisLock is an internal class marked as final that cannot be instantiated without invoking its constructor
ReflectionException: Class RedLock is an internal class marked as final that cannot be instantiated without invoking its constructor
