--TEST--
An object whose constructor threw (kept through debug_backtrace): every method is an Error, a second __construct too; its destruction and request end are safe
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_phpredis();
?>
--EXTENSIONS--
redislock
redis
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
$r->del('lock:t085');

function try_all(RedisLock|RedLock $o): void
{
    $calls = [
        'lock' => fn() => $o->lock('t085', 1000),
        'unlock' => fn() => $o->unlock('t085', 'tok'),
        'extend' => fn() => $o->extend('t085', 'tok', 1000),
        'synchronized' => fn() => $o->synchronized('t085', fn($t) => 'ran'),
    ];
    if ($o instanceof RedisLock) {
        $calls['acquireLock'] = fn() => $o->acquireLock('t085', 1);
        $calls['releaseLock'] = fn() => $o->releaseLock('t085');
        $calls['__construct'] = fn() => $o->__construct(rl_test_server(0));
    } else {
        $calls['getValidity'] = fn() => $o->getValidity('t085');
        $calls['__construct'] = fn() => $o->__construct([rl_test_server(0)]);
    }
    foreach ($calls as $what => $f) {
        try {
            $f();
            echo "    $what: accepted\n";
        } catch (Throwable $e) {
            echo "    $what: ", get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
}

/** The object under construction, found from user code the constructor runs. */
function capture(): void
{
    foreach (debug_backtrace(DEBUG_BACKTRACE_PROVIDE_OBJECT) as $frame) {
        $obj = $frame['object'] ?? null;
        if ($obj instanceof RedisLock || $obj instanceof RedLock) {
            $GLOBALS['kept'][] = $obj;
            return;
        }
    }
}

class T085Redis extends Redis
{
    public function __construct(private bool $fail) {}
    public function getHost(): string
    {
        capture();
        if ($this->fail) {
            throw new RuntimeException('getHost failed');
        }
        return rl_test_host();
    }
    public function getPort(): int { return rl_test_port(0); }
    public function getDbNum(): int { return 0; }
    public function getAuth(): mixed { return null; }
}

// The autoloader the logger option reaches captures the object too.
spl_autoload_register(function (string $class) {
    capture();
    eval("class $class { public static function log(\$level, \$message, \$context) {} }");
});

$kept = [];
$failures = [
    'RedisLock, getHost() throws' => fn() => new RedisLock(new T085Redis(true)),
    'RedLock, getHost() of element 1 throws' => fn() => new RedLock([rl_test_server(0), new T085Redis(true)]),
    'RedLock, element 2 is malformed' => fn() => new RedLock([rl_test_server(0), new T085Redis(false), 'host:']),
    'RedisLock, an option after the logger is bad' => fn() => new RedisLock(rl_test_server(0), ['logger' => 'T085LoggerA::log', 'database' => -1]),
    'RedLock, an option after the logger is bad' => fn() => new RedLock([rl_test_server(0)], 10, 1, ['logger' => 'T085LoggerB::log', 'timeout' => 0]),
];
foreach ($failures as $what => $f) {
    try {
        $f();
        echo "$what: constructed\n";
    } catch (Throwable $e) {
        echo "$what: ", get_class($e), "\n";
    }
    $obj = end($kept);
    echo "  then:\n";
    try_all($obj);
}
var_dump($r->exists('lock:t085'));
var_dump(is_array(RedisLock::stats()));

// Destroyed now (the first two), or left to request end (the others).
unset($obj);
array_shift($kept);
array_shift($kept);
gc_collect_cycles();
echo "done\n";
?>
--EXPECT--
RedisLock, getHost() throws: RuntimeException
  then:
    lock: Error: RedisLock object is not initialized: its constructor failed
    unlock: Error: RedisLock object is not initialized: its constructor failed
    extend: Error: RedisLock object is not initialized: its constructor failed
    synchronized: Error: RedisLock object is not initialized: its constructor failed
    acquireLock: Error: RedisLock object is not initialized: its constructor failed
    releaseLock: Error: RedisLock object is not initialized: its constructor failed
    __construct: Error: Cannot call constructor twice
RedLock, getHost() of element 1 throws: RuntimeException
  then:
    lock: Error: RedLock object is not initialized: its constructor failed
    unlock: Error: RedLock object is not initialized: its constructor failed
    extend: Error: RedLock object is not initialized: its constructor failed
    synchronized: Error: RedLock object is not initialized: its constructor failed
    getValidity: Error: RedLock object is not initialized: its constructor failed
    __construct: Error: Cannot call constructor twice
RedLock, element 2 is malformed: ValueError
  then:
    lock: Error: RedLock object is not initialized: its constructor failed
    unlock: Error: RedLock object is not initialized: its constructor failed
    extend: Error: RedLock object is not initialized: its constructor failed
    synchronized: Error: RedLock object is not initialized: its constructor failed
    getValidity: Error: RedLock object is not initialized: its constructor failed
    __construct: Error: Cannot call constructor twice
RedisLock, an option after the logger is bad: ValueError
  then:
    lock: Error: RedisLock object is not initialized: its constructor failed
    unlock: Error: RedisLock object is not initialized: its constructor failed
    extend: Error: RedisLock object is not initialized: its constructor failed
    synchronized: Error: RedisLock object is not initialized: its constructor failed
    acquireLock: Error: RedisLock object is not initialized: its constructor failed
    releaseLock: Error: RedisLock object is not initialized: its constructor failed
    __construct: Error: Cannot call constructor twice
RedLock, an option after the logger is bad: ValueError
  then:
    lock: Error: RedLock object is not initialized: its constructor failed
    unlock: Error: RedLock object is not initialized: its constructor failed
    extend: Error: RedLock object is not initialized: its constructor failed
    synchronized: Error: RedLock object is not initialized: its constructor failed
    getValidity: Error: RedLock object is not initialized: its constructor failed
    __construct: Error: Cannot call constructor twice
int(0)
bool(true)
done
