--TEST--
__construct from inside the object's own code is refused: from its logger (during lock()) and from an autoloader the logger option reaches during the first constructor
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_servers(2);
?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r0 = new RlTestRedis(rl_test_server(0));
$r1 = new RlTestRedis(rl_test_server(1));
$r0->del('lock:t082');
$r1->del('lock:t082');

// 1. The logger, called by lock(), constructs the object again.
$l = new RedisLock(rl_test_server(0), ['logger' => function ($level, $message, $context) {
    if ($context['event'] === 'acquired') {
        $GLOBALS['l']->__construct(rl_test_server(1));
        echo "re-construct from the logger: accepted\n";
    }
}]);
try {
    $l->lock('t082', 30000);
    echo "lock: no exception\n";
} catch (Error $e) {
    echo "lock: ", get_class($e), ': ', $e->getMessage(), "\n";
}
// The lock taken before the logger ran is recorded, on the first server.
var_dump($r0->exists('lock:t082'), $r1->exists('lock:t082'));
var_dump($l->releaseLock('t082'), $r0->exists('lock:t082'));

// The same for RedLock, the logger catching the Error itself.
$red = new RedLock([rl_test_server(0)], 10, 1, ['logger' => function ($level, $message, $context) {
    if ($context['event'] === 'acquired') {
        try {
            $GLOBALS['red']->__construct([rl_test_server(1), rl_test_server(1), rl_test_server(1)]);
            echo "RedLock re-construct from the logger: accepted\n";
        } catch (Error $e) {
            echo "RedLock re-construct from the logger: ", $e->getMessage(), "\n";
        }
    }
}]);
$t = $red->lock('t082', 30000);
var_dump(is_string($t), $r0->get('lock:t082') === $t, $r1->exists('lock:t082'));
var_dump($red->unlock('t082', $t));

// 2. A logger given as "Class::method" makes the constructor autoload Class:
// user code inside the first constructor. It finds the object under
// construction and calls __construct on it, then a method.
spl_autoload_register(function (string $class) {
    foreach (debug_backtrace(DEBUG_BACKTRACE_PROVIDE_OBJECT) as $frame) {
        $obj = $frame['object'] ?? null;
        if (($frame['function'] ?? '') === '__construct' && ($obj instanceof RedisLock || $obj instanceof RedLock)) {
            $args = $obj instanceof RedisLock ? [rl_test_server(1)] : [[rl_test_server(1)]];
            foreach (['__construct' => $args, 'lock' => ['t082', 1000]] as $method => $a) {
                try {
                    $obj->$method(...$a);
                    echo "  $method inside the constructor: accepted\n";
                } catch (Error $e) {
                    echo "  $method inside the constructor: ", get_class($e), ': ', $e->getMessage(), "\n";
                }
            }
        }
    }
    eval("class $class { public static function log(\$level, \$message, \$context) {} }");
});
echo "RedisLock:\n";
$l2 = new RedisLock(rl_test_server(0), ['logger' => 'T082LoggerA::log']);
echo "RedLock:\n";
$red2 = new RedLock([rl_test_server(0)], 10, 1, ['logger' => 'T082LoggerB::log']);
// Both finished their one construct and work on server 0 only.
foreach ([$l2, $red2] as $obj) {
    $t = $obj->lock('t082', 30000);
    var_dump($r0->get('lock:t082') === $t, $r1->exists('lock:t082'), $obj->unlock('t082', $t));
}
?>
--EXPECT--
lock: Error: Cannot call constructor twice
int(1)
int(0)
bool(true)
int(0)
RedLock re-construct from the logger: Cannot call constructor twice
bool(true)
bool(true)
int(0)
bool(true)
RedisLock:
  __construct inside the constructor: Error: Cannot call constructor twice
  lock inside the constructor: Error: RedisLock object is not initialized: its constructor has not finished
RedLock:
  __construct inside the constructor: Error: Cannot call constructor twice
  lock inside the constructor: Error: RedLock object is not initialized: its constructor has not finished
bool(true)
int(0)
bool(true)
bool(true)
int(0)
bool(true)
