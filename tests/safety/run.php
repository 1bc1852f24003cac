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

const RL_SAFETY_MODES = [
    'redislock'         => ['nodes' => 1, 'fencing' => false],
    'redislock+fencing' => ['nodes' => 1, 'fencing' => true],
    'redlock'           => ['nodes' => 5, 'fencing' => false],
    'redlock+fencing'   => ['nodes' => 5, 'fencing' => true],
];
const RL_SAFETY_FAULTS = ['none', 'holder-pause', 'server-pause', 'server-restart-empty', 'server-restart-aof',
                          'client-kill', 'script-flush'];

/**
 * @param array{mode:string, fault:string, auto_extend:bool, seed:int, seconds:float, workers:int} $row
 */
function rl_safety_run(array $row): array
{
    $mode = RL_SAFETY_MODES[$row['mode']] ?? throw new ValueError("unknown mode {$row['mode']}");
    in_array($row['fault'], RL_SAFETY_FAULTS, true) || throw new ValueError("unknown fault {$row['fault']}");
    mt_srand($row['seed']);
    // a restart (about 100 ms a node) must land inside a section to matter:
    // longer sections there, still well under their TTL
    $restart = str_starts_with($row['fault'], 'server-restart');
    $ttl = $restart ? 2000 : 400;
    $timeout = 1.0; // not less: CI runs this beside valgrind and the platform matrix on 2 cores
    $aof = $row['fault'] === 'server-restart-aof' ? ['--appendonly', 'yes', '--appendfsync', 'always'] : [];
    $nodes = [];
    for ($i = 0; $i < $mode['nodes']; $i++) {
        $nodes[] = new RlTestServer($aof);
    }
    $store = new RlTestServer();
    $dir = rl_mktemp_dir('rl-safety-');
    $until = microtime(true) + $row['seconds'];
    $workers = [];
    for ($w = 0; $w < $row['workers']; $w++) {
        $cfg = ['w' => $w, 'nodes' => array_map(fn($n) => $n->addr(), $nodes), 'store' => $store->addr(),
                'history' => "$dir/w$w.jsonl", 'until' => $until, 'ttl' => $ttl, 'wait' => 2.0,
                'timeout' => $timeout, 'auto_extend' => $row['auto_extend'], 'fencing' => $mode['fencing'],
                'work_us' => $restart ? [300000, 800000] : [2000, 20000],
                'seed' => $row['seed'] * 100 + $w];
        $workers[] = rl_php_child_start('require ' . var_export(__DIR__ . '/worker.php', true) . ';'
                                        . ' rl_safety_worker(' . var_export($cfg, true) . ');');
    }
    $faults = rl_safety_inject($row['fault'], $nodes, $store, $workers, $until, $ttl);
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
    foreach ($nodes as $n) {
        foreach ($n->client()->keys('lock:*') as $k) {
            $left += !str_contains($k, "\0f") && $n->client()->pttl($k) === -1;
        }
    }
    foreach ([...$nodes, $store] as $srv) {
        $srv->stop();
    }
    rl_rmtree($dir);
    if ($errors !== '') {
        throw new RuntimeException("row {$row['mode']} / {$row['fault']} seed {$row['seed']}: $errors");
    }
    return $row + rl_safety_check($records, $writes, $final, $faults, (int)(($timeout * 2 + 1.0) * 1e6), $left);
}

/**
 * Injects the fault until $until at times the seed (mt_srand'ed) chooses;
 * returns [start_us, end_us, affects_quorum] for each injection.
 */
function rl_safety_inject(string $fault, array $nodes, RlTestServer $store, array $workers, float $until, int $ttl): array
{
    $faults = [];
    $now = fn() => (int)(microtime(true) * 1e6);
    $n = count($nodes);
    $minority = intdiv($n - 1, 2);           // nodes that may fail with the quorum still up
    usleep(mt_rand(200000, 600000));
    while (microtime(true) < $until - 1.0) {
        $start = $now();
        $quorumHit = false;
        switch ($fault) {
        case 'none':
            break;
        case 'holder-pause':                 // the holder, longer than the TTL: the lock expires under it
            $w = $workers[(int)$store->client()->get('holder')];
            $w->signal(SIGSTOP);
            usleep($ttl * 2500);
            $w->signal(SIGCONT);
            break;
        case 'server-pause':                 // a minority of RedLock's nodes; RedisLock's only node
            $picked = rl_safety_pick($n, max(1, $minority));
            foreach ($picked as $i) $nodes[$i]->pause();
            usleep(1500000);
            foreach ($picked as $i) $nodes[$i]->resume();
            $quorumHit = $n === 1;
            break;
        case 'server-restart-empty':
        case 'server-restart-aof':
            if ($n === 1) {
                $nodes[0]->kill();
                $nodes[0]->restart();
            } else {
                // Redlock's hard case: a minority down while a holder takes
                // the lock on the rest, then one of those restarts and the
                // minority comes back (empty without persistence): they make
                // a quorum that a second client can win while the first
                // still holds. Down, not paused: a paused node would run the
                // holder's queued SET when resumed.
                $picked = rl_safety_pick($n, $minority + 1);
                $cut = array_slice($picked, 0, $minority);
                foreach ($cut as $i) $nodes[$i]->kill();
                usleep(mt_rand(300000, 600000));
                $nodes[$picked[$minority]]->kill();
                $nodes[$picked[$minority]]->restart();
                foreach ($cut as $i) $nodes[$i]->restart();
            }
            $quorumHit = true;
            break;
        case 'client-kill':
            $nodes[mt_rand(0, $n - 1)]->client()->clientKillAllExceptMe();
            break;
        case 'script-flush':
            foreach ($nodes as $node) $node->client()->scriptFlush();
            break;
        }
        $faults[] = [$start, $now(), $quorumHit];
        usleep(mt_rand(500000, 1500000));
    }
    return $faults;
}

/** $k distinct node indexes out of $n, in a seeded order. */
function rl_safety_pick(int $n, int $k): array
{
    $all = range(0, $n - 1);
    for ($i = $n - 1; $i > 0; $i--) {
        $j = mt_rand(0, $i);
        [$all[$i], $all[$j]] = [$all[$j], $all[$i]];
    }
    return array_slice($all, 0, $k);
}
