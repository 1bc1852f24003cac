--TEST--
Connections name themselves for CLIENT LIST (CLIENT SETINFO lib-name redislock, lib-ver the version) in the write that carries their first command, replies not waited for: on a server that has it (Redis 7.2+, Valkey), CLIENT LIST shows the lock connection as ours; on one that refuses it (Redis 7.0), nothing fails and nothing is left unread
--EXTENSIONS--
redislock
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$r = new RlTestRedis(rl_test_server(0));
try {
    $r->cmd('CLIENT', 'SETINFO', 'LIB-NAME', 'probe');
    $names = true;
} catch (RlTestRedisError $e) {
    $names = false;           // Redis before 7.2: "unknown subcommand"
}
// a fresh connection (not the pooled one of an earlier test): its own database (no other test uses 14)
$lock = new RedisLock(rl_test_server(0), ['database' => 14, 'persistent' => false]);
$t = $lock->lock('c078', 10000);
$ok = $t !== null && $lock->unlock('c078', $t) && $lock->lock('c078', 10000) !== null;
echo "locks work on the fresh connection, every reply read in step: ", $ok ? 'yes' : 'NO', "\n";
$ours = array_values(array_filter(explode("\n", (string)$r->cmd('CLIENT', 'LIST')),
    fn($line) => str_contains($line, ' db=14 ')));
if ($names) {
    echo "CLIENT LIST: ", count($ours) === 1 && str_contains($ours[0], ' lib-name=redislock ')
        && str_contains($ours[0], ' lib-ver=' . phpversion('redislock') . ' ') ? 'named redislock, with its version' : 'NOT NAMED: ' . implode(' | ', $ours), "\n";
} else {
    echo "CLIENT LIST: ", count($ours) === 1 ? 'named redislock, with its version' : 'NO CONNECTION: ' . implode(' | ', $ours), "\n";
    echo "(this server refuses CLIENT SETINFO: the name is asked for and refused)\n";
}
?>
--EXPECTREGEX--
locks work on the fresh connection, every reply read in step: yes
CLIENT LIST: named redislock, with its version(
\(this server refuses CLIENT SETINFO: the name is asked for and refused\))?
