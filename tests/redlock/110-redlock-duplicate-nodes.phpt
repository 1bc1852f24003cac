--TEST--
RedLock: a node listed twice (in any server form, any host letter case) is a ValueError naming both elements; distinct nodes still lock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(2); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$h = rl_test_host();
$p0 = rl_test_port(0);
$p1 = rl_test_port(1);
$cases = [
    'same string twice' => ["$h:$p0", "$h:$p0", "$h:$p1"],
    'three times' => ["$h:$p0", "$h:$p0", "$h:$p0"],
    'string and array' => ["$h:$p0", "$h:$p1", ['host' => $h, 'port' => $p0]],
    'tcp:// and plain' => ["tcp://$h:$p0", "$h:$p0"],
    'host letter case' => ["LOCALHOST:$p0", "localhost:$p0"],
    'unix path twice' => ['/tmp/r110.sock', 'unix:///tmp/r110.sock'],
];
foreach ($cases as $what => $servers) {
    try {
        new RedLock($servers);
        echo "$what: accepted\n";
    } catch (ValueError $e) {
        echo "$what: ", str_replace([(string)$p0, (string)$p1], ['P0', 'P1'], $e->getMessage()), "\n";
    }
}
// distinct nodes are fine, and lock
$ok = new RedLock(["$h:$p0", "$h:$p1"]);
$t = $ok->lock('r110', 5000);
var_dump(is_string($t), $ok->unlock('r110', $t));
?>
--EXPECT--
same string twice: RedLock::__construct(): Argument #1 ($servers) element 1 is the same Redis node as element 0 (127.0.0.1:P0): a quorum needs independent nodes
three times: RedLock::__construct(): Argument #1 ($servers) element 1 is the same Redis node as element 0 (127.0.0.1:P0): a quorum needs independent nodes
string and array: RedLock::__construct(): Argument #1 ($servers) element 2 is the same Redis node as element 0 (127.0.0.1:P0): a quorum needs independent nodes
tcp:// and plain: RedLock::__construct(): Argument #1 ($servers) element 1 is the same Redis node as element 0 (127.0.0.1:P0): a quorum needs independent nodes
host letter case: RedLock::__construct(): Argument #1 ($servers) element 1 is the same Redis node as element 0 (LOCALHOST:P0): a quorum needs independent nodes
unix path twice: RedLock::__construct(): Argument #1 ($servers) element 1 is the same Redis node as element 0 (unix:/tmp/r110.sock): a quorum needs independent nodes
bool(true)
bool(true)
