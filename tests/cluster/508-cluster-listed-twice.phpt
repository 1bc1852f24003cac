--TEST--
Cluster: a RedLock listing one cluster twice (a seed in common) is refused at construction, naming both elements, before any network I/O; different clusters, and a cluster beside plain nodes, are taken
--EXTENSIONS--
redislock
--FILE--
<?php
function show(callable $f): void
{
    try {
        $f();
        echo "constructed\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}

// nothing listens on these ports: a refusal here is made before any I/O
show(fn() => new RedLock([['cluster' => ['127.0.0.1:7000', '127.0.0.1:7001']], '127.0.0.1:6390',
                          ['cluster' => ['127.0.0.1:7002', '127.0.0.1:7001']]]));
show(fn() => new RedLock([['cluster' => ['127.0.0.1:7000']], ['cluster' => ['redis://127.0.0.1:7000']]]));
show(fn() => new RedLock([['cluster' => ['127.0.0.1:7000']], ['cluster' => ['127.0.0.1:8000']], '127.0.0.1:6390']));
show(fn() => new RedLock([['cluster' => ['127.0.0.1:7000']], '127.0.0.1:7000']));
?>
--EXPECT--
ValueError: RedLock::__construct(): Argument #1 ($servers) element 2 is the same cluster as element 0 (a seed in common): a quorum needs independent nodes
ValueError: RedLock::__construct(): Argument #1 ($servers) element 1 is the same cluster as element 0 (a seed in common): a quorum needs independent nodes
constructed
constructed
