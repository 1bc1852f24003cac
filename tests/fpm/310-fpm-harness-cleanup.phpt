--TEST--
php-fpm test helper: nothing is left running after stop(), after a fatal error in the test, or when the test process is killed
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; require __DIR__ . '/../fpm.inc'; rl_skip_unless_fpm(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../fpm.inc';

// A pid is gone when it does not exist or is a zombie nobody reaps.
$gone = function (array $pids): bool {
    foreach ($pids as $pid) {
        $stat = @file_get_contents("/proc/$pid/stat");
        if ($stat !== false && substr($stat, strrpos($stat, ')') + 2, 1) !== 'Z') {
            return false;
        }
    }
    return true;
};
$refused = fn(int $port) => !@stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 1.0);

echo "-- stop()\n";
$fpm = new RlTestFpm(['pm.max_children' => 2]);
$fpm->writeScript('hello.php', "<?php echo 'hello from ', PHP_SAPI;\n");
echo $fpm->request('hello.php')['body'], "\n";
$pids = array_merge([$fpm->pid()], $fpm->workers());
$port = $fpm->port();
echo "processes: ", count($pids), "\n";
$fpm->stop();
var_dump($gone($pids), $refused($port));

$inc = var_export(__DIR__ . '/../fpm.inc', true);
$child = <<<PHP
    require $inc;
    \$fpm = new RlTestFpm(['pm.max_children' => 2]);
    echo json_encode(['port' => \$fpm->port(), 'pids' => array_merge([\$fpm->pid()], \$fpm->workers())]), "\\n";
    if (getenv('RL_HOW') === 'fatal') {
        undefined_function();
    }
    sleep(120);
    PHP;

echo "-- the test dies of a fatal error\n";
putenv('RL_HOW=fatal');
[$code, $out, $err] = rl_php_child($child, [], 120.0);
putenv('RL_HOW');
$info = json_decode(strtok($out, "\n"), true);
echo "exit code: $code, ", str_contains($err, 'Call to undefined function undefined_function()') ? 'fatal error' : $err, "\n";
var_dump(count($info['pids']), $gone($info['pids']), $refused($info['port']));

echo "-- the test is killed (SIGKILL)\n";
$c = rl_php_child_start($child);
rl_wait_until(fn() => str_contains($c->output(), "\n") || !$c->isRunning(), 120.0);
$info = json_decode(strtok($c->output(), "\n"), true);
$c->kill();
var_dump(count($info['pids']));
var_dump(rl_wait_until(fn() => $gone($info['pids']), 20.0), $refused($info['port']));
?>
--EXPECT--
-- stop()
hello from fpm-fcgi
processes: 3
bool(true)
bool(true)
-- the test dies of a fatal error
exit code: 255, fatal error
int(3)
bool(true)
bool(true)
-- the test is killed (SIGKILL)
int(3)
bool(true)
bool(true)
