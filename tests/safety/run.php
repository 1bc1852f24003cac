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
require_once __DIR__ . '/worker.php';
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
 * @return array the row, its counts (rl_safety_check()), 'predicted' (what its windows may break)
 *               and 'windows' (how many occurrences of the fault landed)
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
    $from = rl_safety_now();                      // after the set-up: a Sentinel group or a Cluster takes seconds
    $until = $from + (int)($row['seconds'] * 1e6);
    [$ttl, $work] = $topology->timing($row['fault']);
    $store = new RlTestServer();
    $storeReaper = new RlSafetyReaper([$store]);   // a killed run leaves no store behind
    $dir = rl_mktemp_dir('rl-safety-');
    $workers = [];
    for ($w = 0; $w < $row['workers']; $w++) {
        [$class, $server, $options] = method_exists($topology, 'lockFor') ? $topology->lockFor($w) : $topology->lock();
        $cfg = ['w' => $w, 'class' => $class, 'server' => $server, 'store' => $store->addr(),
                'options' => $options + ['timeout' => $timeout, 'auto_extend' => $row['auto_extend'],
                                         'fencing' => $mode['fencing'], 'on_lost' => $row['on_lost'] ?? null],
                'history' => "$dir/w$w.jsonl", 'until' => $until, 'ttl' => $ttl, 'wait' => 2.0,
                'work_us' => $work, 'seed' => $row['seed'] * 100 + $w];
        $workers[] = rl_php_child_start('require ' . var_export(__DIR__ . '/worker.php', true) . ';'
                                        . ' rl_safety_worker(' . var_export($cfg, true) . ');');
    }
    $windows = rl_safety_inject($topology, $row['fault'], $store, $workers, $until, $ttl);
    foreach ($windows as &$win) {
        // what an occurrence may break can depend on the watchdog (a clock
        // under 2x fast: it extends in time)
        if ($row['auto_extend'] && isset($win['breaks_auto_extend'])) {
            $win['breaks'] = $win['breaks_auto_extend'];
        }
    }
    unset($win);
    $errors = '';
    foreach ($workers as $w) {
        [$code, , $stderr] = $w->wait($row['seconds'] + 30.0);
        if ($code !== 0) {
            $errors .= "worker exit $code: " . trim($stderr) . "\n";
        }
    }
    $to = rl_safety_now();
    $records = rl_safety_read(glob("$dir/w*.jsonl"));
    $s = $store->client();
    $accepted = $final = [];
    foreach (['safety', 'other'] as $res) {
        $accepted[$res] = (int)$s->get("accepted:$res");
        $final[$res] = (int)$s->get("counter:$res");
    }
    $left = 0;
    foreach ($topology->dataAddrs() as $addr) {
        $c = new RlTestRedis($addr);
        foreach ($c->keys('lock:*') as $k) {
            $left += $c->cmd('TYPE', $k) === 'string' && !str_contains($k, "\0") && $c->pttl($k) === -1;
        }
    }
    $topology->stop();
    $store->stop();
    $storeReaper->stop();
    if (($keep = getenv('REDISLOCK_SAFETY_KEEP')) !== false && $keep !== '') {
        // the run's history and windows, to look at a verdict by hand
        $to_dir = "$keep/{$row['mode']}-{$row['fault']}-" . ($row['auto_extend'] ? 'on' : 'off') . "-{$row['seed']}";
        @mkdir($to_dir, 0777, true);
        foreach (glob("$dir/w*.jsonl") as $f) copy($f, "$to_dir/" . basename($f));
        file_put_contents("$to_dir/windows.json", json_encode($windows));
    }
    rl_rmtree($dir);
    if ($errors !== '') {
        throw new RuntimeException("row {$row['mode']} / {$row['fault']} seed {$row['seed']}: $errors");
    }
    // a fault's effects may outlast it: a call that began during it, a node
    // coming back, a holder's TTL that must run out
    $grace = (int)(($timeout * 2 + 1.0) * 1e6) + $ttl * 1000;
    $predicted = array_values(array_unique(array_merge([], ...array_column($windows, 'breaks'))));
    return $row + ['predicted' => $predicted, 'windows' => count($windows)]
        + rl_safety_check($records, ['from' => $from, 'to' => min($to, $until), 'windows' => $windows, 'grace' => $grace,
                                     'accepted' => $accepted, 'final' => $final, 'left_keys' => $left,
                                     'permit_limit' => RL_SAFETY_PERMIT_LIMIT]);
}

/**
 * Injects the fault until $until at times the seed (mt_srand'ed) chooses;
 * returns its windows (now.php).
 */
function rl_safety_inject(RlSafetyTopology $topology, string $fault, RlTestServer $store, array $workers,
                          int $until, int $ttl): array
{
    $windows = [];
    usleep(mt_rand(200000, 600000));
    while (rl_safety_now() < $until - 1000000) {
        $windows = array_merge($windows, $topology->inject($fault, $workers, $store->client(), $ttl));
        usleep(mt_rand(500000, 1500000));
    }
    return array_values(array_filter($windows, fn($w) => $w['fault'] !== 'none'));
}
