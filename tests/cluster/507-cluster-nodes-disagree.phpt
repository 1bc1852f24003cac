--TEST--
Cluster: two masters that disagree on a slot (each sends the call to the other with MOVED, as while a failover is being gossiped) are asked again after a pause within the call's timeout, not given up on after 5 redirections; the call succeeds once they agree
--SKIPIF--
<?php require __DIR__ . '/../cluster.inc'; rl_cluster_skip(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../cluster.inc';

$c = new RlTestCluster();
$l = new RedisLock(['cluster' => $c->seeds()], ['timeout' => rl_under_valgrind() ? 5.0 : 2.0]);
$t = $l->lock('c507-warm', 1000);                  // the slot map is known
$l->unlock('c507-warm', $t);

$slot = $c->slotOf('lock:c507');
$a = $c->masterForSlot($slot);
$b = array_values(array_diff($c->masters(), [$a]))[0];
$moved = function (string $node) use ($c, $a, $b) {
    try {
        $c->cmd($node, 'GET', 'lock:c507');
        return 'answers';
    } catch (RlTestRedisError $e) {
        return str_replace([$a, $b], ['A', 'B'], $e->getMessage());
    }
};
// A gives the (empty) slot to B in its own view only; B still names A
echo "A: ", $c->cmd($a, 'CLUSTER', 'SETSLOT', $slot, 'NODE', $c->id($b)), "\n";
echo "asked, A says: ", $moved($a), "\n";
echo "asked, B says: ", $moved($b), "\n";

// half a second into the call, B takes the slot
$cli = rl_cluster_cli_binary();
$port = substr($b, strrpos($b, ':') + 1);
// (and bumps its epoch so that the other masters take its claim)
$bg = proc_open(['sh', '-c', 'sleep 0.5; "$0" -p "$1" CLUSTER SETSLOT "$2" NODE "$3"; exec "$0" -p "$1" CLUSTER BUMPEPOCH',
                 $cli, $port, (string)$slot, $c->id($b)],
                [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
$redirects = RedisLock::stats()['cluster_redirects'];
try {
    $t = $l->lock('c507', 10000);
    echo "lock: ", is_string($t) ? 'taken' : var_export($t, true), "\n";
    echo "held on B: ", var_export($c->cmd($b, 'GET', 'lock:c507') === $t, true), "\n";
    echo "more redirections followed than the 5 at once: ",
         var_export(RedisLock::stats()['cluster_redirects'] - $redirects > 5, true), "\n";
    var_dump($l->unlock('c507', $t));
} catch (RedisLockException $e) {
    echo get_class($e), ' (', $e->getCode(), '): ', str_replace([$a, $b], ['A', 'B'], $e->getMessage()), "\n";
}
proc_close($bg);
?>
--EXPECTF--
A: OK
asked, A says: MOVED %d B
asked, B says: MOVED %d A
lock: taken
held on B: true
more redirections followed than the 5 at once: true
bool(true)
