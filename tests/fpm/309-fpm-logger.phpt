--TEST--
php-fpm: the logger option (PSR-3 style object, and a callable) receives acquired, contended, released, expired and failed events with resource, node and timing; never the full token nor the password
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

$password = 'pw-' . bin2hex(random_bytes(8));
$server = new RlTestServer(['--requirepass', $password]);
$r = $server->client($password);
$r->set('lock:held', 'someone else', 'PX', 600000);
$r->cmd('HSET', 'lock:wrongtype', 'field', 'value');   // the release script's GET fails on it
$fpm = new RlTestFpm(['pm.max_children' => 1]);

$fpm->writeScript('log.php', <<<'PHP'
    <?php
    echo getmypid(), "\n";

    /** What a PSR-3 logger offers: log($level, $message, array $context). */
    final class MemoryLogger
    {
        public array $records = [];

        public function log($level, string|\Stringable $message, array $context = []): void
        {
            $this->records[] = ['level' => $level, 'message' => (string)$message, 'context' => $context];
        }
    }

    $psr3 = new MemoryLogger();
    $records = [];
    $callable = function (string $level, string $message, array $context) use (&$records): void {
        $records[] = ['level' => $level, 'message' => $message, 'context' => $context];
    };

    $tokens = [];
    $loggers = ['psr3' => $psr3, 'callable' => $callable];
    foreach ($loggers as $name => $logger) {
        $lock = new RedisLock($_GET['addr'], ['password' => $_GET['pw'], 'logger' => $logger]);
        $tokens[] = $t = $lock->lock("$name-a", 10000);           // acquired
        $lock->unlock("$name-a", $t);                               // released
        $lock->lock('held', 1000);                                  // contended
        $tokens[] = $t = $lock->lock("$name-short", 20);          // acquired
        usleep(60000);
        $lock->unlock("$name-short", $t);                           // expired
        try {
            $lock->unlock('wrongtype', str_repeat('f', 32));       // failed: WRONGTYPE
            echo "no exception\n";
        } catch (RedisLockException $e) {
        }
        $wrong = new RedisLock($_GET['addr'], ['password' => $_GET['pw'] . '-wrong', 'logger' => $logger]);
        try {
            $wrong->lock("$name-c", 1000);                          // failed: AUTH refused
            echo "no exception\n";
        } catch (RedisLockConnectionException $e) {
        }
    }
    echo json_encode(['psr3' => $psr3->records, 'callable' => $records, 'tokens' => $tokens]), "\n";
    PHP);

$res = $fpm->request('log.php', ['addr' => $server->addr(), 'pw' => $password]);
[, $json] = explode("\n", $res['body']) + [1 => ''];
$got = json_decode($json, true);
if (!is_array($got)) {
    var_dump($res);
}
$tokens = $got['tokens'];
var_dump(count($tokens) === 4 && count(array_filter($tokens, fn($t) => is_string($t) && strlen($t) === 32)) === 4);

foreach (['psr3', 'callable'] as $name) {
    echo "-- $name logger\n";
    foreach ($got[$name] as $rec) {
        $c = $rec['context'];
        $nodes = [];
        foreach ((array)($c['nodes'] ?? []) as $node => $vote) {
            $nodes[] = ($node === $server->addr() ? 'SERVER' : $node) . '=' . strtok((string)$vote, ' ');
        }
        $token = 'no token';
        if (isset($c['token'])) {
            $token = "token " . $c['token'];
            foreach ($tokens as $t) {
                if ($c['token'] === substr($t, 0, 8) . '...') {
                    $token = 'token 8-char prefix';
                }
            }
        }
        printf("%s %s: %s; resource %s; key %s; nodes %s; %s; %s; %s\n", $rec['level'], $c['event'] ?? 'NO EVENT',
            $rec['message'], $c['resource'] ?? 'NONE', $c['key'] ?? 'NONE', $nodes ? implode(',', $nodes) : 'NONE',
            isset($c['ms']) && is_numeric($c['ms']) && $c['ms'] >= 0 ? 'ms' : 'NO TIMING', $token,
            implode(',', array_keys(array_diff_key($c, array_flip(['event', 'resource', 'key', 'nodes', 'ms', 'token'])))) ?: 'nothing else');
    }
}

$all = json_encode([$got['psr3'], $got['callable']]);
echo "the password in the records: ", str_contains($all, $password) ? 'YES' : 'no', "\n";
echo "a full token in the records: ", array_filter($tokens, fn($t) => str_contains($all, $t)) ? 'YES' : 'no', "\n";
echo $res['stderr'];
?>
--EXPECT--
bool(true)
-- psr3 logger
info acquired: redislock: acquired psr3-a; resource psr3-a; key lock:psr3-a; nodes SERVER=yes; ms; token 8-char prefix; nothing else
info released: redislock: released psr3-a; resource psr3-a; key lock:psr3-a; nodes SERVER=yes; ms; token 8-char prefix; nothing else
debug contended: redislock: contended held; resource held; key lock:held; nodes SERVER=no; ms; no token; nothing else
info acquired: redislock: acquired psr3-short; resource psr3-short; key lock:psr3-short; nodes SERVER=yes; ms; token 8-char prefix; nothing else
warning expired: redislock: expired psr3-short; resource psr3-short; key lock:psr3-short; nodes SERVER=no; ms; token 8-char prefix; nothing else
error failed: redislock: failed wrongtype; resource wrongtype; key lock:wrongtype; nodes SERVER=WRONGTYPE; ms; no token; nothing else
error failed: redislock: failed psr3-c; resource psr3-c; key lock:psr3-c; nodes SERVER=AUTH; ms; no token; nothing else
-- callable logger
info acquired: redislock: acquired callable-a; resource callable-a; key lock:callable-a; nodes SERVER=yes; ms; token 8-char prefix; nothing else
info released: redislock: released callable-a; resource callable-a; key lock:callable-a; nodes SERVER=yes; ms; token 8-char prefix; nothing else
debug contended: redislock: contended held; resource held; key lock:held; nodes SERVER=no; ms; no token; nothing else
info acquired: redislock: acquired callable-short; resource callable-short; key lock:callable-short; nodes SERVER=yes; ms; token 8-char prefix; nothing else
warning expired: redislock: expired callable-short; resource callable-short; key lock:callable-short; nodes SERVER=no; ms; token 8-char prefix; nothing else
error failed: redislock: failed wrongtype; resource wrongtype; key lock:wrongtype; nodes SERVER=WRONGTYPE; ms; no token; nothing else
error failed: redislock: failed callable-c; resource callable-c; key lock:callable-c; nodes SERVER=AUTH; ms; no token; nothing else
the password in the records: no
a full token in the records: no
