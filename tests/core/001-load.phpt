--TEST--
redislock loads: classes, exception hierarchy, final classes, method signatures of the design
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

var_dump(extension_loaded('redislock'));
var_dump(phpversion('redislock') === (new ReflectionExtension('redislock'))->getVersion());

foreach (['RedisLockException', 'RedisLockConnectionException', 'RedisLockTimeoutException',
          'RedisLock', 'RedLock'] as $class) {
    $rc = new ReflectionClass($class);
    printf("%s: internal=%s extension=%s parent=%s final=%s\n", $class,
        var_export($rc->isInternal(), true), $rc->getExtensionName(),
        $rc->getParentClass() ? $rc->getParentClass()->getName() : '-',
        var_export($rc->isFinal(), true));
}
var_dump(is_subclass_of('RedisLockException', 'RuntimeException'));
var_dump(is_subclass_of('RedisLockConnectionException', 'RedisLockException'));
var_dump(is_subclass_of('RedisLockTimeoutException', 'RedisLockException'));

// The exceptions are usable like any exception.
try {
    throw new RedisLockConnectionException('down', 7);
} catch (RedisLockException $e) {
    echo get_class($e), ' ', $e->getMessage(), ' ', $e->getCode(), "\n";
}

function signature(ReflectionMethod $m): string
{
    $params = [];
    foreach ($m->getParameters() as $p) {
        $s = '';
        foreach ($p->getAttributes() as $a) {
            $s .= '#[' . $a->getName() . '] ';
        }
        $s .= ($p->hasType() ? $p->getType() . ' ' : '') . '$' . $p->getName();
        if ($p->isDefaultValueAvailable()) {
            $d = $p->getDefaultValue();
            $s .= ' = ' . ($d === [] ? '[]' : var_export($d, true));
        }
        $params[] = $s;
    }
    return $m->getName() . '(' . implode(', ', $params) . ')'
        . ($m->hasReturnType() ? ': ' . $m->getReturnType() : '');
}

// The methods of the design (stubs/redislock.stub.php), in order.
$design = [
    'RedisLock' => ['__construct', 'acquireLock', 'releaseLock', 'lock', 'unlock', 'extend', 'synchronized'],
    'RedLock' => ['__construct', 'lock', 'unlock', 'extend', 'synchronized', 'getValidity'],
];
foreach ($design as $class => $methods) {
    foreach ($methods as $name) {
        $m = new ReflectionMethod($class, $name);
        echo $class, '::', signature($m), $m->isPublic() ? '' : ' NOT PUBLIC', $m->isStatic() ? ' STATIC' : '', "\n";
    }
}
?>
--EXPECT--
bool(true)
bool(true)
RedisLockException: internal=true extension=redislock parent=RuntimeException final=false
RedisLockConnectionException: internal=true extension=redislock parent=RedisLockException final=false
RedisLockTimeoutException: internal=true extension=redislock parent=RedisLockException final=false
RedisLock: internal=true extension=redislock parent=- final=true
RedLock: internal=true extension=redislock parent=- final=true
bool(true)
bool(true)
bool(true)
RedisLockConnectionException down 7
RedisLock::__construct(#[SensitiveParameter] Redis|RedisCluster|array|string $server = '127.0.0.1:6379', #[SensitiveParameter] array $options = [])
RedisLock::acquireLock(string $resource, int $timeout = 10): bool
RedisLock::releaseLock(string $resource): bool
RedisLock::lock(string $resource, int $ttl, float $wait = 0.0, ?string $token = NULL): ?string
RedisLock::unlock(string $resource, string $token): bool
RedisLock::extend(string $resource, string $token, int $ttl): bool
RedisLock::synchronized(string $resource, callable $callback, int $ttl = 10000, float $wait = 10.0): mixed
RedLock::__construct(#[SensitiveParameter] array $servers, int $retryDelay = 200, int $retryCount = 3, #[SensitiveParameter] array $options = [])
RedLock::lock(string $resource, int $ttl, ?float $wait = NULL, ?string $token = NULL): ?string
RedLock::unlock(string $resource, string $token): bool
RedLock::extend(string $resource, string $token, int $ttl): bool
RedLock::synchronized(string $resource, callable $callback, int $ttl = 10000, float $wait = 10.0): mixed
RedLock::getValidity(string $resource): int
