<?php
/*
 * One row of the safety suite: a mode (which lock, on which servers), a
 * fault, auto_extend on or off, a seed. Starts its own redis-servers on
 * free loopback ports (the lock's nodes and a separate store), runs the
 * workers while the fault is injected at times the seed chooses, stops
 * everything by pid, and returns the checker's counts (history.php).
 */
require_once __DIR__ . '/../redislock_test.inc';
require_once __DIR__ . '/history.php';
require_once __DIR__ . '/topology_nodes.php';
require_once __DIR__ . '/topology_sentinel.php';
require_once __DIR__ . '/topology_cluster.php';

/**
 * The modes: how the lock is deployed (a topology class and its arguments)
 * and whether the workers use fencing. A fault runs in a mode when the
 * mode's topology has it (RlSafetyTopology::faults()).
 */
function rl_safety_modes(): array
{
    return [
        'redislock'             => ['class' => 'RlSafetyNodes', 'args' => [1], 'fencing' => false],
        'redislock+fencing'     => ['class' => 'RlSafetyNodes', 'args' => [1], 'fencing' => true],
        'redlock'               => ['class' => 'RlSafetyNodes', 'args' => [5], 'fencing' => false],
        'redlock+fencing'       => ['class' => 'RlSafetyNodes', 'args' => [5], 'fencing' => true],
        'sentinel'              => ['class' => 'RlSafetySentinel', 'args' => [false], 'fencing' => false],
        'sentinel+min_replicas' => ['class' => 'RlSafetySentinel', 'args' => [true], 'fencing' => false],
        'sentinel+fencing'      => ['class' => 'RlSafetySentinel', 'args' => [false], 'fencing' => true],
        'cluster'               => ['class' => 'RlSafetyCluster', 'args' => [], 'fencing' => false],
    ];
}

/** Every fault of every mode, in the table's order. */
function rl_safety_faults(): array
{
    $all = [];
    foreach (rl_safety_modes() as $m) {
        $all = array_merge($all, $m['class']::faults());
    }
    return array_values(array_unique($all));
}

/**
 * @param array{mode:string, fault:string, auto_extend:bool, seed:int, seconds:float, workers:int} $row
 */
function rl_safety_run(array $row): array
{
    $mode = rl_safety_modes()[$row['mode']] ?? throw new ValueError("unknown mode {$row['mode']}");
    in_array($row['fault'], $mode['class']::faults(), true)
        || throw new ValueError("fault {$row['fault']} does not apply to mode {$row['mode']}");
    mt_srand($row['seed']);
    $timeout = 1.0; // not less: CI runs this beside valgrind and the platform matrix on 2 cores
    /** @var RlSafetyTopology $topology */
    $topology = new $mode['class'](...[...$mode['args'], $row['fault'], microtime(true) + $row['seconds'] + 60.0]);
    $until = microtime(true) + $row['seconds'];   // after the set-up: a Sentinel group or a Cluster takes seconds
    [$ttl, $work] = $topology->timing($row['fault']);
    [$class, $server, $options] = $topology->lock();
    $store = new RlTestServer();
    $dir = rl_mktemp_dir('rl-safety-');
    $workers = [];
    for ($w = 0; $w < $row['workers']; $w++) {
        $cfg = ['w' => $w, 'class' => $class, 'server' => $server, 'store' => $store->addr(),
                'options' => $options + ['timeout' => $timeout, 'auto_extend' => $row['auto_extend'],
                                         'fencing' => $mode['fencing']],
                'history' => "$dir/w$w.jsonl", 'until' => $until, 'ttl' => $ttl, 'wait' => 2.0,
                'work_us' => $work, 'seed' => $row['seed'] * 100 + $w];
        $workers[] = rl_php_child_start('require ' . var_export(__DIR__ . '/worker.php', true) . ';'
                                        . ' rl_safety_worker(' . var_export($cfg, true) . ');');
    }
    $faults = rl_safety_inject($topology, $row['fault'], $store, $workers, $until, $ttl);
    $errors = '';
    foreach ($workers as $w) {
        [$code, , $stderr] = $w->wait($row['seconds'] + 30.0);
        if ($code !== 0) {
            $errors .= "worker exit $code: " . trim($stderr) . "\n";
        }
    }
    $records = rl_safety_read(glob("$dir/w*.jsonl"));
    $s = $store->client();
    $writes = array_map(function ($e) {
        [$fence, $ok] = explode(':', $e);
        return [$fence === '' ? null : (int)$fence, $ok === '1'];
    }, $s->cmd('LRANGE', 'writes', 0, -1));
    $final = (int)$s->get('counter');
    $left = 0;
    foreach ($topology->dataAddrs() as $addr) {
        $c = new RlTestRedis($addr);
        foreach ($c->keys('lock:*') as $k) {
            $left += !str_contains($k, "\0f") && $c->pttl($k) === -1;
        }
    }
    $topology->stop();
    $store->stop();
    rl_rmtree($dir);
    if ($errors !== '') {
        throw new RuntimeException("row {$row['mode']} / {$row['fault']} seed {$row['seed']}: $errors");
    }
    return $row + ['overlaps_predicted' => $topology->overlapsPredicted($row['fault'])]
        + rl_safety_check($records, $writes, $final, $faults, (int)(($timeout * 2 + 1.0) * 1e6), $left);
}

/**
 * Injects the fault until $until at times the seed (mt_srand'ed) chooses;
 * returns [start_us, end_us, affects_quorum] for each injection.
 */
function rl_safety_inject(RlSafetyTopology $topology, string $fault, RlTestServer $store, array $workers,
                          float $until, int $ttl): array
{
    $faults = [];
    $now = fn() => (int)(microtime(true) * 1e6);
    usleep(mt_rand(200000, 600000));
    while (microtime(true) < $until - 1.0) {
        $start = $now();
        $quorumHit = $topology->inject($fault, $workers, $store->client(), $ttl);
        $faults[] = [$start, $now(), $quorumHit];
        usleep(mt_rand(500000, 1500000));
    }
    return $faults;
}
