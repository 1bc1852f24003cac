--TEST--
Fencing: an owner's token left on the nodes by a holder that never released (its process ended with auto_release off) is taken as a new acquisition with a larger number, never the earlier holder's, with and without waiting, on one node and on a quorum; a re-entrant acquire and an owner's refresh keep their number
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_servers(3); ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$servers = rl_test_servers(3);
$one = [rl_test_server(0)];

/** The lock's number as a child process got it; the child exits without releasing. */
function left_by_child(array $servers, string $resource): int
{
    $make = count($servers) === 1
        ? 'new RedisLock(' . var_export($servers[0], true) . ', $o)'
        : 'new RedLock(' . var_export($servers, true) . ', 200, 3, $o)';
    [$exit, $out, $err] = rl_php_child('
        $o = ["fencing" => true, "auto_release" => false];
        $l = ' . $make . ';
        var_dump($l->lock(' . var_export($resource, true) . ', 30000, 0.0, "job-7"));
        echo $l->fencingToken(' . var_export($resource, true) . '), "\n";
    ');
    if ($exit !== 0 || !str_starts_with($out, "string(5) \"job-7\"\n")) {
        throw new RuntimeException("child: exit $exit, $out $err");
    }
    return (int)explode("\n", trim($out))[1];
}

foreach (['RedisLock' => $one, 'RedLock' => $servers] as $kind => $nodes) {
    foreach ([0.0, 1.0] as $wait) {
        $res = "o604-$kind-$wait";
        foreach (array_keys($nodes) as $i) {
            (new RlTestRedis(rl_test_server($i)))->del("lock:$res", rl_derived_key("lock:$res", 'f'));
        }
        $left = left_by_child($nodes, $res);
        $l = $kind === 'RedisLock'
            ? new RedisLock($nodes[0], ['fencing' => true, 'reentrant' => false])
            : new RedLock($nodes, 200, 3, ['fencing' => true, 'reentrant' => false]);
        $got = $l->lock($res, 30000, $wait, 'job-7');                   // the token the child left
        $n = $l->fencingToken($res);
        echo "$kind, wait $wait: taken ", var_export($got, true), ', number ',
            $n > $left ? 'larger than the left holder\'s' : "$n, the left holder had $left", "\n";
        // the owner naming its token again while it holds the lock: a refresh, the same number
        $again = $l->lock($res, 30000, $wait, 'job-7');
        echo "  refreshed by its holder: ", var_export($again, true), ', number ',
            $l->fencingToken($res) === $n ? 'kept' : $l->fencingToken($res) . " (was $n)", "\n";
        var_dump($l->unlock($res, 'job-7'));

        // re-entrant (the default): the same acquisition keeps its number
        $r = $kind === 'RedisLock' ? new RedisLock($nodes[0], ['fencing' => true])
                                   : new RedLock($nodes, 200, 3, ['fencing' => true]);
        $t = $r->lock($res, 30000, $wait);
        $m = $r->fencingToken($res);
        $t2 = $r->lock($res, 30000, $wait);
        echo "  re-entered: ", $t2 === $t && $r->fencingToken($res) === $m && $m > $n ? 'same number' : "NO ($m, {$r->fencingToken($res)})", "\n";
        $r->unlock($res, $t);
        $r->unlock($res, $t);
        foreach (array_keys($nodes) as $i) {
            (new RlTestRedis(rl_test_server($i)))->del("lock:$res", rl_derived_key("lock:$res", 'f'));
        }
    }
}
?>
--EXPECT--
RedisLock, wait 0: taken 'job-7', number larger than the left holder's
  refreshed by its holder: 'job-7', number kept
bool(true)
  re-entered: same number
RedisLock, wait 1: taken 'job-7', number larger than the left holder's
  refreshed by its holder: 'job-7', number kept
bool(true)
  re-entered: same number
RedLock, wait 0: taken 'job-7', number larger than the left holder's
  refreshed by its holder: 'job-7', number kept
bool(true)
  re-entered: same number
RedLock, wait 1: taken 'job-7', number larger than the left holder's
  refreshed by its holder: 'job-7', number kept
bool(true)
  re-entered: same number
