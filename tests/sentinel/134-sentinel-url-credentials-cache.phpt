--TEST--
Sentinel: the sentinels' credentials given in their URLs are part of the per-process cache of the master's address: after an object with the right password found the master, one with a wrong password or none fails as it does in a fresh process (code 14, NOAUTH or WRONGPASS named), also with the password in the group's "sentinel_password" beside a URL without one; no message holds a password
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';

$spw = 'T134-sentinel-secret';
$g = new RlTestSentinelGroup('mymaster', ['sentinel_password' => $spw]);
$urls = fn(?string $pw) => array_map(fn($a) => $pw === null ? "redis://$a" : "redis://:$pw@$a", $g->sentinelAddrs());
$cases = [
    'wrong password in the URLs' => ['sentinels' => $urls('T134-wrong'), 'service' => 'mymaster'],
    'no password' => ['sentinels' => $urls(null), 'service' => 'mymaster'],
    'wrong sentinel_password, URLs without' => ['sentinels' => $urls(null), 'service' => 'mymaster', 'sentinel_password' => 'T134-wrong2'],
];
$try = function (array $group): string {
    try {
        $l = new RedisLock($group);
        $t = $l->lock('s134', 5000);
        $l->unlock('s134', $t);
        return is_string($t) ? 'locked' : 'not locked';
    } catch (RedisLockException $e) {
        $m = $e->getMessage();
        return get_class($e) . ' ' . $e->getCode() . (preg_match('/NOAUTH|WRONGPASS/', $m) ? ', names the refusal' : ", says: $m")
            . (str_contains($m, 'T134-') ? ', SHOWS A PASSWORD' : '');
    }
};
// fresh: nothing cached yet
foreach ($cases as $what => $group) {
    echo "fresh, $what: ", $try($group), "\n";
}
// warm: the right credentials find and cache the master first, each way they can be given
foreach (['in the URLs' => ['sentinels' => $urls($spw), 'service' => 'mymaster'],
          'in sentinel_password' => ['sentinels' => $urls(null), 'service' => 'mymaster', 'sentinel_password' => $spw]]
         as $how => $good) {
    echo "right password $how: ", $try($good), "\n";
    foreach ($cases as $what => $group) {
        echo "  then, $what: ", $try($group), "\n";
    }
}
?>
--EXPECT--
fresh, wrong password in the URLs: RedisLockConnectionException 14, names the refusal
fresh, no password: RedisLockConnectionException 14, names the refusal
fresh, wrong sentinel_password, URLs without: RedisLockConnectionException 14, names the refusal
right password in the URLs: locked
  then, wrong password in the URLs: RedisLockConnectionException 14, names the refusal
  then, no password: RedisLockConnectionException 14, names the refusal
  then, wrong sentinel_password, URLs without: RedisLockConnectionException 14, names the refusal
right password in sentinel_password: locked
  then, wrong password in the URLs: RedisLockConnectionException 14, names the refusal
  then, no password: RedisLockConnectionException 14, names the refusal
  then, wrong sentinel_password, URLs without: RedisLockConnectionException 14, names the refusal
