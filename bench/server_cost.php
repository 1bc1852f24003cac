<?php
/*
 * What a lock cycle costs the Redis core: for each server (the host's
 * redis-server, and Redis and Valkey of a Debian root made by
 * scripts/platform/root.sh, run on the host's loopback through
 * scripts/platform/in-root.sh), each scenario runs CYCLES lock + unlock
 * cycles from this one PHP, then reads the servers' INFO:
 *   - commandstats: usec and calls per command, summed over the commands of
 *     a cycle (the time the server spent executing them);
 *   - cpu (used_cpu_user + used_cpu_sys): all the server process spent,
 *     reading, parsing and writing included; what bounds a master's core.
 * Both are per cycle, summed over the nodes a scenario uses (RedLock: 3).
 * The floor is a bare SET NX PX + DEL on phpredis; "native" its DEL made a
 * compare-and-delete (DELEX IFEQ, DELIFEQ) where the server has one.
 * Peers: symfony/lock's RedisStore and Laravel's RedisLock as their users
 * write them (bench/peers.php), on the same phpredis.
 * On the host's server also a Redis Cluster of 3 masters (tests/cluster.inc).
 * A Sentinel group's master gets the same commands as one server (the
 * sentinels are asked at connect and after a failover only).
 * Contended scenarios: two processes (fork) take the same resource in
 * turn, each holding it while the other asks; the cost is per acquisition.
 * Every scenario runs once a round, BENCH_ROUNDS rounds (5) one after
 * another; usec and CPU are each the median round's.
 *   php -d extension=modules/redislock.so bench/server_cost.php CYCLES SERVER...
 * SERVER: NAME=host | NAME=root:ROOT:BINARY (e.g. redis-8.6=root:sid:redis-server).
 * Prints a TSV table on stdout (bench/server_cost_table.php formats it).
 */
require __DIR__ . '/peers.php';
require __DIR__ . '/../tests/cluster.inc'; // RlTestCluster, rl_free_port()

$cycles = max(10, (int)($argv[1] ?? 3000));
$rounds = max(1, (int)(getenv('BENCH_ROUNDS') ?: 5));
$specs = array_slice($argv, 2) ?: ['redis-host=host'];
if (!extension_loaded('redislock') || !extension_loaded('redis')) {
    fwrite(STDERR, "server_cost: needs the redislock and redis extensions loaded\n");
    exit(1);
}
$laravel = false;
foreach (['Illuminate/Support/autoload.php', 'Illuminate/Redis/autoload.php', 'Illuminate/Cache/autoload.php'] as $a) {
    if (($p = stream_resolve_include_path($a)) !== false) {
        require_once $p;
        $laravel = true;
    }
}
$laravel = $laravel && class_exists(\Illuminate\Cache\RedisLock::class);

/** One redis-server or valkey-server on a free loopback port; stopped by pid at exit. */
final class CostServer
{
    public int $port;
    private $proc;

    public function __construct(string $spec)
    {
        $root = dirname(__DIR__);
        $this->port = rl_free_port();
        $args = ['--port', (string)$this->port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
        if ($spec === 'host') {
            $cmd = ['redis-server', ...$args, '--dir', sys_get_temp_dir()];
        } elseif (preg_match('/^root:([\w.-]+):([\w-]+)$/', $spec, $m)) {
            $cmd = ["$root/scripts/platform/in-root.sh", $m[1], $m[2], ...$args, '--dir', '/tmp'];
        } else {
            throw new InvalidArgumentException("server_cost: no such server spec '$spec' (host, root:ROOT:BINARY)");
        }
        $this->proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        for ($i = 0; $i < 500; $i++) {
            try {
                $r = new Redis();
                if (@$r->connect('127.0.0.1', $this->port, 0.2) && $r->ping()) {
                    return;
                }
            } catch (RedisException) {
            }
            usleep(20000);
        }
        throw new RuntimeException("server_cost: $spec did not start on port {$this->port}");
    }

    public function __destruct()
    {
        if (is_resource($this->proc)) {
            $pid = proc_get_status($this->proc)['pid'];
            posix_kill($pid, SIGTERM);
            proc_close($this->proc);
        }
    }
}

/** The servers' counters: commandstats and CPU seconds, per node. */
function cost_reset(array $rs): array
{
    $cpu = [];
    foreach ($rs as $i => $r) {
        $r->rawCommand('CONFIG', 'RESETSTAT');
        $info = $r->info('cpu');
        $cpu[$i] = $info['used_cpu_user'] + $info['used_cpu_sys'];
    }
    return $cpu;
}

/**
 * Of each command's calls, the share its client sent (not a script): what
 * MONITOR shows ("lua" as the client of a script's) over a run of
 * the scenario (a run as long as the measured ones, before them) on node
 * $port. A script's usec includes the commands it
 * runs, which commandstats counts again under their own names: weighting
 * each command's usec by this share counts the server's time once.
 */
function direct_shares(int $port, callable $sample): array
{
    $m = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2.0);
    fwrite($m, "MONITOR\r\n");
    fgets($m);
    $sample();
    $end = new Redis();
    $end->connect('127.0.0.1', $port, 2.0);
    $end->rawCommand('ECHO', 'server-cost-sample-end');
    $all = $direct = [];
    stream_set_timeout($m, 10);
    while (($line = fgets($m)) !== false && !str_contains($line, 'server-cost-sample-end')) {
        if (preg_match('/^\+[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"(?: "([^"]*)")?/', $line, $x)) {
            foreach ([strtolower($x[2]), strtolower($x[2] . '|' . ($x[3] ?? ''))] as $cmd) {
                $all[$cmd] = ($all[$cmd] ?? 0) + 1;
                $direct[$cmd] = ($direct[$cmd] ?? 0) + ($x[1] === 'lua' ? 0 : 1);
            }
        }
    }
    fclose($m);
    $share = [];
    foreach ($all as $cmd => $n) {
        $share[$cmd] = $direct[$cmd] / $n;
    }
    return $share;
}

/** Per unit: [calls, usec, cpu usec, "cmd calls ..."] since cost_reset(); calls
 * and usec count what the clients sent (a script's inner commands are in its own). */
function cost_read(array $rs, array $cpu0, int $units, array $share): array
{
    $calls = $usec = $cpu = 0.0;
    $by = [];
    foreach ($rs as $i => $r) {
        $info = $r->info('cpu');
        $cpu += ($info['used_cpu_user'] + $info['used_cpu_sys'] - $cpu0[$i]) * 1e6;
        foreach ($r->info('commandstats') as $k => $v) {
            $cmd = substr($k, 8);
            if (in_array($cmd, ['info', 'config|resetstat', 'config'], true)) {
                continue; // the measurement's own
            }
            preg_match('/calls=(\d+),usec=(\d+)/', $v, $m);
            // Not seen in the sample: a script's rarer path (the sample runs
            // every command a client of the scenario sends).
            $direct = $share[$cmd] ?? 0.0;
            $calls += $m[1] * $direct;
            $usec += $m[2] * $direct;
            if ($direct > 0) {
                $by[$cmd] = ($by[$cmd] ?? 0) + $m[1] * $direct;
            }
        }
    }
    arsort($by);
    $top = [];
    foreach ($by as $cmd => $n) {
        if ($n / $units >= 0.05) {
            $top[] = sprintf('%s %.2g', $cmd, $n / $units);
        }
    }
    return [$calls / $units, $usec / $units, $cpu / $units, implode(', ', $top)];
}

/** A bare lock on phpredis: SET NX PX, then DEL, or a native compare-and-delete. */
final class FloorLock implements BenchLock
{
    private Redis $r;

    public function __construct(int $port, private ?array $release = null)
    {
        $this->r = new Redis();
        $this->r->pconnect('127.0.0.1', $port, 1.0);
    }

    public function lock(string $resource, int $ttl): ?string
    {
        $t = bin2hex(random_bytes(8));
        return $this->r->set($resource, $t, ['nx', 'px' => $ttl]) ? $t : null;
    }

    public function unlock(string $resource, string $token): bool
    {
        if ($this->release === null) {
            return (bool)$this->r->del($resource);
        }
        return (bool)$this->r->rawCommand(...str_replace(['KEY', 'TOKEN'], [$resource, $token], $this->release));
    }
}

/** Laravel's RedisLock as its cache store makes it: SET EX NX, release by EVAL. */
final class LaravelLock implements BenchLock
{
    private \Illuminate\Redis\Connections\PhpRedisConnection $c;

    public function __construct(int $port)
    {
        $r = new Redis();
        $r->pconnect('127.0.0.1', $port, 1.0);
        $this->c = new \Illuminate\Redis\Connections\PhpRedisConnection($r);
    }

    public function lock(string $resource, int $ttl): ?string
    {
        $l = new \Illuminate\Cache\RedisLock($this->c, $resource, intdiv($ttl, 1000));
        return $l->acquire() ? $l->owner() : null;
    }

    public function unlock(string $resource, string $token): bool
    {
        return (new \Illuminate\Cache\RedisLock($this->c, $resource, 10, $token))->release();
    }
}

/** The native compare-and-delete a server has, as a command template, or null. */
function native_release(Redis $r): ?array
{
    $info = $r->rawCommand('COMMAND', 'INFO', 'delex', 'delifeq');
    if (!empty($info[0])) {
        return ['DELEX', 'KEY', 'IFEQ', 'TOKEN'];
    }
    return !empty($info[1]) ? ['DELIFEQ', 'KEY', 'TOKEN'] : null;
}

/** Uncontended: $cycles cycles of $l on resource names that go round 64. */
function run_cycles(BenchLock $l, int $cycles, string $tag): void
{
    for ($i = 0; $i < $cycles; $i++) {
        $res = "cost:$tag:" . ($i % 64);
        $t = $l->lock($res, 10000);
        if ($t === null || !$l->unlock($res, $t)) {
            throw new RuntimeException("server_cost: $tag: cycle $i failed");
        }
    }
}

/** Contended: two processes take one resource $n times each, in turn: each
 * holds it 2 ms, then leaves 1 ms to the other, who is waiting by then. */
function run_contended(callable $make, int $n, string $tag): int
{
    $pid = pcntl_fork();
    $l = $make(); // after the fork: each process its own connections
    for ($i = 0; $i < $n; $i++) {
        $t = $l->lockWait("cost:$tag:c");
        usleep(2000); // the work, while the other waits
        $l->unlock("cost:$tag:c", $t);
        usleep(1000); // the other's turn: each acquisition but the first follows a wait
    }
    if ($pid === 0) {
        // No destructors: the parent's phpredis connections, copied at the
        // fork, would say QUIT on them and close the parent's too.
        posix_kill(posix_getpid(), SIGKILL);
    }
    pcntl_waitpid($pid, $st);
    return 2 * $n;
}

/** A lock that waits: the extension's wait, or a peer's blocking acquire. */
final class Waiting
{
    public function __construct(private Closure $lock, private Closure $unlock) {}
    public function lockWait(string $res): string { return ($this->lock)($res); }
    public function unlock(string $res, string $t): void { ($this->unlock)($res, $t); }
}

echo "server\tscenario\tnodes\tunits\tcalls\tusec\tcpu_usec\tcommands\n";
foreach ($specs as $spec) {
    [$name, $how] = explode('=', $spec, 2) + [1 => 'host'];
    $servers = [new CostServer($how), new CostServer($how), new CostServer($how)];
    $ports = array_map(fn($s) => $s->port, $servers);
    $rs = array_map(function ($p) {
        $r = new Redis();
        $r->connect('127.0.0.1', $p, 2.0);
        return $r;
    }, $ports);
    $one = ['127.0.0.1:' . $ports[0]];
    $three = array_map(fn($p) => "127.0.0.1:$p", $ports);
    $native = native_release($rs[0]);

    $scenarios = [
        ['floor: SET NX PX + DEL', 1, fn(int $n) => run_cycles(new FloorLock($ports[0]), $n, 'floor')],
        ['RedisLock lock/unlock', 1, fn(int $n) => run_cycles(new ExtLock(new RedisLock($one[0])), $n, 'ext')],
        ['RedisLock, fencing', 1, fn(int $n) => run_cycles(new ExtLock(new RedisLock($one[0], ['fencing' => true])), $n, 'fence')],
        ['RedisLock lockShared/unlock', 1, function (int $n) use ($one) {
            $l = new RedisLock($one[0]);
            for ($i = 0; $i < $n; $i++) {
                $t = $l->lockShared("cost:shared:" . ($i % 64), 10000) ?? throw new RuntimeException('shared');
                $l->unlock("cost:shared:" . ($i % 64), $t);
            }
        }],
        ['RedisLock acquirePermit/unlock', 1, function (int $n) use ($one) {
            $l = new RedisLock($one[0]);
            for ($i = 0; $i < $n; $i++) {
                $t = $l->acquirePermit("cost:permit:" . ($i % 64), 5, 10000) ?? throw new RuntimeException('permit');
                $l->unlock("cost:permit:" . ($i % 64), $t);
            }
        }],
        ['RedisLock lockMany(3)/unlockMany', 1, function (int $n) use ($one) {
            $l = new RedisLock($one[0]);
            for ($i = 0; $i < $n; $i++) {
                $names = ["cost:many:a$i", "cost:many:b$i", "cost:many:c$i"];
                $t = $l->lockMany($names, 10000) ?? throw new RuntimeException('many');
                $l->unlockMany($names, $t);
            }
        }],
        ['RedLock lock/unlock', 3, fn(int $n) => run_cycles(new ExtLock(new RedLock($three)), $n, 'redlock')],
    ];
    if ($native !== null) {
        array_splice($scenarios, 1, 0, [['floor, native: SET NX PX + ' . $native[0], 1,
            fn(int $n) => run_cycles(new FloorLock($ports[0], $native), $n, 'native')]]);
    }
    if (BENCH_HAVE_SYMFONY) {
        $scenarios[] = ['symfony/lock RedisStore', 1, fn(int $n) => run_cycles(new SymfonyLock([['127.0.0.1', $ports[0]]]), $n, 'symfony')];
        $scenarios[] = ['symfony/lock CombinedStore', 3, fn(int $n) => run_cycles(new SymfonyLock(array_map(fn($p) => ['127.0.0.1', $p], $ports)), $n, 'symfony3')];
    }
    if ($laravel) {
        $scenarios[] = ['Laravel RedisLock', 1, fn(int $n) => run_cycles(new LaravelLock($ports[0]), $n, 'laravel')];
    }
    $cluster = null;
    if ($how === 'host' && rl_cluster_cli_binary() !== null) {
        // A Cluster of 3 masters (no replicas, as the other rows): a cycle
        // goes to its slot's master; its cost is summed over the three.
        $cluster = new RlTestCluster(3, 0);
        $scenarios[] = ['Cluster: RedisLock lock/unlock', 3,
            fn(int $n) => run_cycles(new ExtLock(new RedisLock(['cluster' => $cluster->seeds()])), $n, 'cluster'), $cluster->masters()];
    }
    $jobs = [];
    foreach ($scenarios as $sc) {
        [$label, $nodes, $run] = $sc;
        $use = array_slice($rs, 0, $nodes);
        $monitored = $ports[0];
        if (isset($sc[3])) { // another set of nodes (the Cluster's masters)
            $use = array_map(function ($addr) {
                [$h, $p] = explode(':', $addr);
                $r = new Redis();
                $r->connect($h, (int)$p, 2.0);
                return $r;
            }, $sc[3]);
            $monitored = (int)explode(':', $sc[3][0])[1];
        }
        $jobs[] = [$label, $nodes, $use, $monitored, fn() => $run($cycles), function () use ($run, $cycles) {
            $run($cycles);
            return $cycles;
        }];
    }

    // Contended: fewer acquisitions (each is a wait), per acquisition.
    $n = max(10, intdiv($cycles, 10));
    $contended = [
        ['contended: RedisLock lock(wait)', 1, $n, function () use ($one) {
            $l = new RedisLock($one[0]);
            return new Waiting(fn($res) => $l->lock($res, 10000, 30.0) ?? throw new RuntimeException('wait'),
                fn($res, $t) => $l->unlock($res, $t));
        }],
        ['contended: RedLock lock(wait)', 3, $n, function () use ($three) {
            $l = new RedLock($three);
            return new Waiting(fn($res) => $l->lock($res, 10000, 30.0) ?? throw new RuntimeException('wait'),
                fn($res, $t) => $l->unlock($res, $t));
        }],
    ];
    if (BENCH_HAVE_SYMFONY) {
        // symfony/lock polls a store that cannot wait: its cost grows with the wait.
        $contended[] = ['contended: symfony/lock acquire(true)', 1, max(10, intdiv($n, 5)), function () use ($ports) {
            $r = new Redis();
            $r->connect('127.0.0.1', $ports[0], 1.0);
            $f = new \Symfony\Component\Lock\LockFactory(new \Symfony\Component\Lock\Store\RedisStore($r));
            $held = [];
            return new Waiting(function ($res) use ($f, &$held) {
                $lock = $f->createLock($res, 10.0, false);
                $lock->acquire(true);
                $held[$res] = $lock;
                return 'x';
            }, function ($res) use (&$held) {
                $held[$res]->release();
            });
        }];
    }
    if ($laravel) {
        // Laravel's block() tries again every 250 ms.
        $contended[] = ['contended: Laravel block()', 1, 10, function () use ($ports) {
            $r = new Redis();
            $r->connect('127.0.0.1', $ports[0], 1.0);
            $c = new \Illuminate\Redis\Connections\PhpRedisConnection($r);
            $held = [];
            return new Waiting(function ($res) use ($c, &$held) {
                $l = new \Illuminate\Cache\RedisLock($c, $res, 10);
                $l->block(30);
                $held[$res] = $l;
                return 'x';
            }, function ($res) use (&$held) {
                $held[$res]->release();
            });
        }];
    }
    foreach ($contended as [$label, $nodes, $each, $make]) {
        $tag = md5($label);
        $jobs[] = [$label, $nodes, array_slice($rs, 0, $nodes), $ports[0],
            fn() => run_contended($make, $each, "s$tag"), fn() => run_contended($make, $each, "c$tag")];
    }
    // Each scenario once per round, the rounds one after another, so that
    // the machine's moods hit all alike; the median round is shown. A
    // fresh server's first thousands of commands cost more (Valkey 9.1: the
    // floor at three times its later cost): a warm-up round first.
    run_cycles(new FloorLock($ports[0]), $cycles, 'warm');
    $shares = array_map(fn($j) => direct_shares($j[3], $j[4]), $jobs);
    $seen = [];
    for ($round = 0; $round < $rounds; $round++) {
        foreach ($jobs as $i => [$label, $nodes, $use, , , $run]) {
            $cpu0 = cost_reset($use);
            $units = $run();
            $seen[$i][] = [$units, ...cost_read($use, $cpu0, $units, $shares[$i])];
        }
    }
    foreach ($jobs as $i => [$label, $nodes]) {
        $median = function (int $k) use ($seen, $i) {
            $v = array_column($seen[$i], $k);
            sort($v);
            return $v[intdiv(count($v), 2)];
        };
        $byUsec = $seen[$i];
        usort($byUsec, fn($x, $y) => $x[2] <=> $y[2]);
        $mid = $byUsec[intdiv(count($byUsec), 2)]; // its calls and commands
        printf("%s\t%s\t%d\t%d\t%.2f\t%.2f\t%.2f\t%s\n", $name, $label, $nodes, $mid[0], $mid[1], $median(2), $median(3), $mid[4]);
    }
    unset($rs, $servers, $cluster);
}
