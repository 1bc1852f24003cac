--TEST--
Sentinel: master password (option "password") and sentinel password ("sentinel_password") each go to their own servers, and neither shows anywhere: messages, traces, var_dump, stats, phpinfo, logger
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); require_once __DIR__ . '/../sentinel.inc'; rl_skip_unless_sentinel(); ?>
--EXTENSIONS--
redislock
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
require __DIR__ . '/../sentinel.inc';

$mpw = 'T126-master-secret';
$spw = 'T126-sentinel-secret';
$g = new RlTestSentinelGroup('mymaster', ['password' => $mpw, 'sentinel_password' => $spw]);
$out = '';
$logger = function ($level, $msg, $ctx) use (&$out) { $out .= $level . $msg . json_encode($ctx); };
$group = ['sentinels' => $g->sentinelAddrs(), 'service' => 'mymaster', 'sentinel_password' => $spw];

$lock = new RedisLock($group, ['password' => $mpw, 'logger' => $logger]);
$t = $lock->lock('s126', 5000);
echo "locked: ", var_export($g->client($g->masterAddr())->get('lock:s126') === $t, true), "\n";
var_dump($lock->unlock('s126', $t));

$bad = [
    'wrong sentinel password' => [['sentinel_password' => 'T126-wrong-s'] + $group, ['password' => $mpw, 'logger' => $logger]],
    'no sentinel password' => [['sentinels' => $group['sentinels'], 'service' => 'mymaster'], ['password' => $mpw]],
    'wrong master password' => [$group, ['password' => 'T126-wrong-m', 'logger' => $logger]],
];
foreach ($bad as $what => [$server, $opts]) {
    try {
        (new RedisLock($server, $opts))->lock('s126b', 1000);
        echo "$what: locked\n";
    } catch (RedisLockException $e) {
        echo "$what: ", get_class($e), " ", $e->getCode(), "\n";
        $out .= $e->getMessage() . $e->getTraceAsString() . $e;
    }
}
ob_start();
var_dump($lock);
var_dump(RedisLock::stats());
phpinfo();
$out .= ob_get_clean();
foreach (['T126-master-secret', 'T126-sentinel-secret', 'T126-wrong-s', 'T126-wrong-m'] as $s) {
    echo "$s shown: ", var_export(str_contains($out, $s), true), "\n";
}
echo "sentinel names in messages: ", var_export(str_contains($out, $g->sentinelAddrs()[0]), true), "\n";
?>
--EXPECT--
locked: true
bool(true)
wrong sentinel password: RedisLockConnectionException 14
no sentinel password: RedisLockConnectionException 14
wrong master password: RedisLockConnectionException 3
T126-master-secret shown: false
T126-sentinel-secret shown: false
T126-wrong-s shown: false
T126-wrong-m shown: false
sentinel names in messages: true
