<?php
/*
 * Shows, by counting, that each fault of the independent-node topologies
 * (topology_nodes.php) does what it says, on real servers:
 *
 *   php -d extension=modules/redislock.so tests/safety/faults_selftest.php [--nodes=1,5] [--seed=N] [FAULT ...]
 *
 * Network faults: one probe process per client (w, the proxies' client id)
 * locks a resource of its own in a loop and records each call (when, what
 * came back, the validity); a fault's window then tells which calls fell
 * in it and which clients it hit. Clock faults: the PTTL of a key on each
 * node, read directly. Server faults: the nodes and keys. Evicting faults:
 * keys with a TTL, as lock keys are, and the nodes' settings after. 'orphans': a
 * topology whose process is killed (SIGKILL) leaves no process behind. Exit status 1 when a
 * check fails.
 */
require_once __DIR__ . '/../redislock_test.inc';
require_once __DIR__ . '/topology_nodes.php';

if (!getenv('REDISLOCK_TEST_EXT') && is_file($so = dirname(__DIR__, 2) . '/modules/redislock.so')) {
    putenv("REDISLOCK_TEST_EXT=$so");  // the probes' extension
}
$opt = getopt('', ['nodes:', 'seed:'], $rest);
$sizes = array_map('intval', explode(',', $opt['nodes'] ?? '1,5'));
$seed = (int)($opt['seed'] ?? 1);
$only = array_slice($argv, $rest);
$failed = 0;

function st_check(string $what, bool $ok): void
{
    global $failed;
    $failed += !$ok;
    echo '  ', $ok ? 'ok  ' : 'FAIL', " $what\n";
}

function st_window(array $w): string
{
    return sprintf('window %s %.2f s, quorum %s, breaks [%s]%s%s', $w['fault'], ($w['end'] - $w['start']) / 1e6,
                   $w['quorum'] ? 'yes' : 'no', implode(',', $w['breaks']),
                   isset($w['clients']) ? ', clients ' . implode(',', $w['clients']) : '',
                   isset($w['detail']) ? " ({$w['detail']})" : '');
}

/** Probe processes, one per client: each locks "st:W:<tag>:<i>" in a loop, recording every call. */
function st_probes(RlSafetyNodes $t, int $clients, int $ttl, string $dir, string $tag, float $seconds, float $timeout): array
{
    $probes = [];
    for ($w = 0; $w < $clients; $w++) {
        $cfg = ['lock' => $t->lockFor($w), 'w' => $w, 'ttl' => $ttl, 'out' => "$dir/p$w-$tag.jsonl",
                'res' => "st:$w:$tag", 'until' => microtime(true) + $seconds, 'timeout' => $timeout];
        $probes[] = rl_php_child_start('require ' . var_export(__DIR__ . '/now.php', true) . '; $c = '
            . var_export($cfg, true) . <<<'PHP'
;
[$class, $server, $options] = $c['lock'];
$options += ['timeout' => $c['timeout']];
$lock = $class === 'RedLock' ? new RedLock($server, 50, 0, $options) : new RedisLock($server, $options);
$out = fopen($c['out'], 'a');
// a resource of its own each call, left to expire: one round trip a call
for ($i = 0; microtime(true) < $c['until']; $i++) {
    $t0 = rl_safety_now();
    $r = ['w' => $c['w'], 't0' => $t0];
    try {
        $tok = $lock->lock("{$c['res']}:$i", $c['ttl']);
        $r += ['got' => $tok !== null, 'validity' => $tok !== null ? $lock->getValidity("{$c['res']}:$i") : null];
    } catch (RedisLockException $e) {
        $r += ['got' => false, 'error' => $e->getCode()];
    }
    $r['t1'] = rl_safety_now();
    fwrite($out, json_encode($r) . "\n");
    usleep(20000);
}
PHP);
    }
    return $probes;
}

function st_records(string $dir, string $tag): array
{
    $r = [];
    foreach (glob("$dir/p*-$tag.jsonl") as $f) {
        foreach (file($f, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $l) $r[] = json_decode($l, true);
    }
    return $r;
}

/**
 * Runs $fault once with probes around it, prints its window; returns [the window, the probes' records]. The
 * probes' calls time out after $timeout (a cut client's fail faster than
 * a worker's, so that more of them fall inside the window).
 */
function st_network(RlSafetyNodes $t, string $fault, array $workers, RlTestRedis $store, int $ttl, string $dir,
                    float $timeout = 0.25): array
{
    $probes = st_probes($t, count($workers), $ttl, $dir, $fault, 6.0, $timeout);
    usleep(500000);
    $windows = $t->inject($fault, $workers, $store, $ttl);
    foreach ($probes as $p) {
        [$code, , $err] = $p->wait(30.0);
        $code === 0 || print("  probe exit $code: $err\n");
    }
    echo '  ', st_window($windows[0]), "\n";
    return [$windows[0], st_records($dir, $fault)];
}

/** Calls that began inside the window $w (but its last $tail µs: RedLock's call waits up to two timeouts), split by whether their client is hit: [[hit ok, hit failed], [others ok, others failed]]. */
function st_split(array $w, array $records, int $clients, int $tail = 550000): array
{
    $hit = $w['clients'] ?? range(0, $clients - 1);
    $n = [[0, 0], [0, 0]];
    foreach ($records as $r) {
        // a hit client's call in the first 50 ms may come before the proxy took its rule
        $isHit = in_array($r['w'], $hit, true);
        if ($r['t0'] >= $w['start'] + ($isHit ? 50000 : 0) && $r['t0'] <= $w['end'] - $tail) {   // not in its tail: a call then may outlast it
            $n[$isHit ? 0 : 1][$r['got'] ? 0 : 1]++;
        }
    }
    return $n;
}

/**
 * Calls that began half a second after the window: [ok, refused, errors]
 * (refused: should not happen, every call locks a resource of its own).
 */
function st_after(array $w, array $records): array
{
    $n = [0, 0, 0];
    foreach ($records as $r) {
        $n[$r['got'] ? 0 : (isset($r['error']) ? 2 : 1)] += $r['t0'] > $w['end'] + 500000;
    }
    return $n;
}

/**
 * The calls sent while a delay of $ms was on: it ends $ms before its
 * window, which waits for what was on its way, and lifting it from the
 * proxies one by one takes a moment.
 */
function st_delayed(array $w, array $records, int $ms): array
{
    return array_filter($records, fn($r) => $r['t0'] > $w['start'] + 50000 && $r['t0'] < $w['end'] - $ms * 1000 - 150000);
}

/** A key of PTTL $ms on every node; returns a reader of their PTTLs. */
function st_keys(RlSafetyNodes $t, int $ms): callable
{
    foreach ($t->dataAddrs() as $a) (new RlTestRedis($a))->set('st:clock', 'x', 'PX', $ms);
    return fn() => array_map(fn($a) => (new RlTestRedis($a))->pttl('st:clock'), $t->dataAddrs());
}

/** Steps $fault's coroutine to its first wait (the fault in effect), runs $probe, then ends it without waiting. */
function st_step(RlSafetyNodes $t, string $fault, array $workers, RlTestRedis $store, int $ttl, callable $probe): array
{
    $g = $t->occurrence($fault, $workers, $store, $ttl);
    $g->current();
    $seen = $probe();
    while ($g->valid()) $g->next();
    return [$g->getReturn(), $seen];
}

$all = ['grant-pause', 'late-replies', 'cut-both', 'cut-requests', 'cut-replies', 'conn-reset', 'packet-drop',
        'partition-requests', 'partition-replies', 'delay', 'server-pause', 'server-restart-empty',
        'clock-jump', 'clock-jump-many', 'clock-back', 'clock-drift', 'eviction', 'eviction-volatile',
        'holder-pause', 'nemesis'];
$faults = array_values(array_diff($only ?: $all, ['orphans']));
foreach ($faults ? $sizes : [] as $n) {
    mt_srand($seed);
    $t = new RlSafetyNodes($n, 'nemesis', microtime(true) + 600.0);   // proxies and clocks on every node
    [$ttl] = $t->timing('nemesis');
    $storeServer = new RlTestServer();
    $store = $storeServer->client();
    $dir = rl_mktemp_dir('rl-selftest-');
    // stand-ins for the workers: holder-pause stops one (SIGSTOP), the others only count them
    $workers = [];
    for ($w = 0; $w < 4; $w++) $workers[] = rl_php_child_start('while (true) usleep(100000);');
    echo "== ", $n === 1 ? 'RedisLock, one node' : "RedLock, $n nodes", ", TTL $ttl ms, seed $seed\n";
    foreach ($faults as $fault) {
        echo "-- $fault\n";
        switch ($fault) {
        case 'cut-both':
        case 'cut-requests':
        case 'cut-replies':
        case 'conn-reset':
        case 'packet-drop':
            [$w, $rec] = st_network($t, $fault, $workers, $store, $ttl, $dir);
            [[$hitOk, $hitFail], [$othOk, $othFail]] = st_split($w, $rec, count($workers), $fault === 'conn-reset' ? 50000 : 550000);
            [$afterOk, $afterRefused, $afterErr] = st_after($w, $rec);
            echo "  calls in the window: clients hit $hitOk ok, $hitFail failed; others $othOk ok, $othFail failed;"
                . " after it: $afterOk ok, $afterRefused refused, $afterErr errors\n";
            st_check('a proper subset of the clients is hit', count($w['clients']) >= 1 && count($w['clients']) < count($workers));
            st_check('the clients hit fail (and none of their calls succeeds)', $hitFail > 0 && $hitOk === 0);
            st_check('the others do not fail', $othOk > 0 && $othFail === 0);
            st_check('every client reconnects and locks after it', $afterOk > 0 && $afterErr + $afterRefused === 0);
            break;
        case 'grant-pause':
            [$w, $rec] = st_network($t, $fault, $workers, $store, $ttl, $dir, 1.0);
            $ms = (int)$w['detail'];
            $late = $other = [];
            foreach (st_delayed($w, $rec, $ms) as $r) {
                if (in_array($r['w'], $w['clients'], true)) {
                    $late[] = $r['got'] ? "validity {$r['validity']} after " . intdiv($r['t1'] - $r['t0'], 1000) . ' ms'
                        : ('refused' . (isset($r['error']) ? " (error {$r['error']})" : ''));
                } elseif ($r['got']) {
                    $other[] = $r['validity'];
                }
            }
            echo "  the paused client's calls: ", implode('; ', $late) ?: 'none', "\n";
            echo '  the others: ', count($other), ' grants, least validity ', $other ? min($other) : '-', "\n";
            $grants = array_filter($late, fn($l) => str_starts_with($l, 'validity'));
            st_check("the paused client's grants were read late, with TTL - $ms ms of validity at most",
                     $grants !== [] && array_filter($grants, fn($l) => (int)substr($l, 9) > $ttl - $ms) === []
                     && !array_filter($late, fn($l) => str_contains($l, 'error')));
            st_check('the others were granted with most of the TTL', $other !== [] && min($other) > 0.8 * $ttl);
            break;
        case 'late-replies':
            [$w, $rec] = st_network($t, $fault, $workers, $store, $ttl, $dir, 1.0);
            $ms = (int)$w['detail'];
            $inside = st_delayed($w, $rec, $ms);
            $grants = array_filter($inside, fn($r) => $r['got']);
            $errors = array_filter($inside, fn($r) => isset($r['error']));
            $vals = array_column($grants, 'validity');
            echo '  calls inside: ', count($inside), ', granted ', count($grants), ', errors ', count($errors),
                 ', validity ', $vals ? min($vals) . '..' . max($vals) : '-', " ms\n";
            st_check("every grant inside left at most TTL - $ms ms of validity", $vals !== [] && max($vals) <= $ttl - $ms);
            st_check('no call failed', $errors === []);
            break;
        case 'partition-requests':
        case 'partition-replies':
        case 'delay':
            [$w, $rec] = st_network($t, $fault, $workers, $store, $ttl, $dir, $fault === 'delay' ? 1.0 : 0.25);
            [[$ok, $fail]] = st_split($w, $rec, count($workers));
            echo "  calls in the window: $ok ok, $fail failed\n";
            st_check($n === 1 && $fault !== 'delay' ? 'the only node cut: calls fail'
                     : ($fault === 'delay' ? 'delays under the timeout: no call fails' : 'a minority cut: no call fails'),
                     $n === 1 && $fault !== 'delay' ? $fail > 0 : $fail === 0 && $ok > 0);
            break;
        case 'server-pause':
        case 'server-restart-empty':
            $before = array_map(fn($a) => (new RlTestRedis($a))->set('st:srv', 'x', 'PX', 60000), $t->dataAddrs());
            $windows = $t->inject($fault, $workers, $store, $ttl);
            echo '  ', st_window($windows[0]), "\n";
            $kept = array_map(fn($a) => (new RlTestRedis($a))->exists('st:srv'), $t->dataAddrs());
            echo '  key kept per node: ', implode(' ', $kept), "\n";
            $lost = $n === 1 ? 1 : intdiv($n - 1, 2) + 1;
            st_check($fault === 'server-pause' ? 'a pause loses nothing' : "$lost node(s) restarted empty",
                     count($kept) - array_sum($kept) === ($fault === 'server-pause' ? 0 : $lost));
            break;
        case 'clock-jump':
        case 'clock-jump-many':
            $read = st_keys($t, 10 * $ttl);
            [$windows, $after] = st_step($t, $fault, $workers, $store, $ttl, fn() => $read());
            $gone = array_map(fn($p) => (int)($p < 8.5 * $ttl), $after);
            $w = $windows[0];
            echo '  ', st_window($w), "\n";
            echo '  PTTL per node after the step (set at ', 10 * $ttl, '): ', implode(' ', $after), "\n";
            preg_match_all('/\d+/', $w['detail'], $m);
            $want = array_fill(0, $n, 0);
            foreach ($m[0] as $i) $want[(int)$i] = 1;
            st_check('the nodes named lost 2 TTL of their key at once, only they', $gone === $want);
            st_check($fault === 'clock-jump' ? 'one node' : ($n === 1 ? 'the only node' : 'two nodes or more'),
                     count($m[0]) === ($fault === 'clock-jump' || $n === 1 ? 1 : max(2, count($m[0]))));
            break;
        case 'clock-back':
            $read = st_keys($t, 10 * $ttl);
            [$windows, $after] = st_step($t, $fault, $workers, $store, $ttl, fn() => $read());
            $w = $windows[0];
            echo '  ', st_window($w), "\n";
            echo '  PTTL per node after the step (set at ', 10 * $ttl, '): ', implode(' ', $after), "\n";
            preg_match('/-(\d+) ms, nodes ([\d,]+)/', $w['detail'], $m);
            $ok = true;
            foreach ($after as $i => $p) {
                $stepped = in_array((string)$i, explode(',', $m[2]), true);
                $ok = $ok && ($stepped ? abs($p - 10 * $ttl - (int)$m[1]) < 100 : $p <= 10 * $ttl && $p > 10 * $ttl - 100);
            }
            st_check('the nodes named keep their key longer by the step, the others do not', $ok);
            break;
        case 'clock-drift':
            [$windows, [$before, $after, $us]] = st_step($t, $fault, $workers, $store, $ttl, function () use ($t, $ttl) {
                // each node's PTTL twice, 1 s apart by this clock, on one connection each
                st_keys($t, 100 * $ttl);
                $cs = array_map(fn($a) => new RlTestRedis($a), $t->dataAddrs());
                $at = fn() => array_map(fn($c) => [hrtime(true), $c->pttl('st:clock')], $cs);
                $first = $at();
                usleep(1000000);
                return [$first, $at(), null];
            });
            $w = $windows[0];
            echo '  ', st_window($w), "\n";
            $rates = [];
            foreach ($after as $i => [$t1, $p]) $rates[$i] = (int)round((($before[$i][1] - $p) / (($t1 - $before[$i][0]) / 1e6) - 1) * 100);
            echo '  PTTL lost per ms of real time, per node: ', implode(' ', array_map(fn($r) => sprintf('%+d%%', $r), $rates)), "\n";
            preg_match_all('/node (\d+) ([+-]\d+)%/', $w['detail'], $m, PREG_SET_ORDER);
            $want = array_fill(0, $n, 0);
            foreach ($m as [, $i, $r]) $want[(int)$i] = (int)$r;
            $close = true;
            foreach ($rates as $i => $r) $close = $close && abs($r - $want[$i]) <= 5;
            st_check('each node named drifts at its rate (within 5 points), the others not', $close);
            st_check('breaks exclusion exactly when a node runs fast', ($w['breaks'] === ['exclusion']) === (max($want) > 0));
            st_check('with auto_extend, only when one runs over twice the speed',
                     ($w['breaks_auto_extend'] === ['exclusion']) === (max($want) > 100));
            break;
        case 'eviction':
        case 'eviction-volatile':
            // 20 keys with a TTL on every node, as lock keys are: some must go
            $cs = array_map(fn($a) => new RlTestRedis($a), $t->dataAddrs());
            foreach ($cs as $c) for ($i = 0; $i < 20; $i++) $c->set("st:ev:$i", 'x', 'PX', 60000);
            $windows = $t->inject($fault, $workers, $store, $ttl);
            echo '  ', st_window($windows[0]), "\n";
            $kept = array_map(fn($c) => array_sum(array_map(fn($i) => $c->exists("st:ev:$i"), range(0, 19))), $cs);
            echo '  keys with a TTL kept of 20, per node: ', implode(' ', $kept), "\n";
            preg_match('/evicted ([\d,]+)/', $windows[0]['detail'], $m);
            $settings = array_map(fn($c) => implode(' ', array_merge($c->cmd('CONFIG', 'GET', 'maxmemory'),
                                                                    $c->cmd('CONFIG', 'GET', 'maxmemory-policy'))), $cs);
            st_check('every node evicted', min(array_map('intval', explode(',', $m[1]))) > 0);
            st_check('keys with a TTL were evicted on every node', max($kept) < 20);
            st_check('maxmemory 0 and noeviction again, no filler left',
                     array_unique($settings) === ['maxmemory 0 maxmemory-policy noeviction']
                     && array_sum(array_map(fn($c) => count($c->keys('filler:*')), $cs)) === 0);
            foreach ($cs as $c) for ($i = 0; $i < 20; $i++) $c->del("st:ev:$i");
            break;
        case 'holder-pause':
            $store->set('holder', '1');
            $state = fn(RlTestChild $c) => explode(' ', (string)@file_get_contents('/proc/' . $c->pid() . '/stat'))[2] ?? '?';
            [$windows, $paused] = st_step($t, $fault, $workers, $store, $ttl, function () use ($state, $workers) {
                usleep(50000);  // a signal lands a moment later
                return array_map($state, $workers);
            });
            usleep(50000);
            $w = $windows[0];
            echo '  ', st_window($w), "\n";
            echo '  worker states while paused: ', implode(' ', $paused), '; after: ', implode(' ', array_map($state, $workers)), "\n";
            st_check('the holder named by the store (1), only it, was stopped, then went on',
                     $paused[1] === 'T' && count(array_keys($paused, 'T')) === 1 && $state($workers[1]) !== 'T');
            $store->del('holder');
            break;
        case 'nemesis':
            $plans = [];
            foreach ([1, 2] as $run) {
                mt_srand($seed);
                $windows = $t->inject('nemesis', $workers, $store, $ttl);
                foreach ($windows as $w) echo '  ', st_window($w), "\n";
                $plans[] = array_map(fn($w) => [$w['fault'], $w['breaks'], $w['clients'] ?? null,
                                                 preg_replace('/\d+ ms/', '', $w['detail'] ?? '')], $windows);
                $starts = array_column($windows, 'start');
                echo "  run $run: ", count($windows), ' occurrences over ',
                     sprintf('%.1f', (max(array_column($windows, 'end')) - min($starts)) / 1e6), " s\n";
            }
            st_check('two or more occurrences, each its own window', count($windows) >= 2);
            st_check('the same seed, the same faults (kinds, nodes, clients, breaks)', $plans[0] === $plans[1]);
            break;
        default:
            throw new ValueError("no self-test for $fault");
        }
    }
    foreach ($workers as $c) $c->kill();
    $t->stop();
    $storeServer->stop();
    rl_rmtree($dir);
}
if (!$only || in_array('orphans', $only, true)) {
    echo "-- a run killed (SIGKILL) leaves no process behind\n";
    $run = rl_php_child_start('require ' . var_export(__DIR__ . '/topology_nodes.php', true) . ';'
        . ' $t = new RlSafetyNodes(5, "nemesis", microtime(true) + 600.0); echo implode(" ", $t->pids()), "\n"; sleep(600);');
    rl_wait_until(fn() => str_contains($run->output(), "\n"), 60.0);
    $pids = array_map('intval', explode(' ', trim($run->output())));
    $alive = fn() => array_filter($pids, fn($p) => is_file("/proc/$p/stat")
                                              && explode(' ', (string)@file_get_contents("/proc/$p/stat"))[2] !== 'Z');
    $before = count($alive());
    $run->kill();
    st_check("its nodes, proxies and reaper ($before processes running) are gone within 5 s",
             $before === 11 && rl_wait_until(fn() => $alive() === [], 5.0));
}
echo $failed ? "$failed checks FAILED\n" : "all checks passed\n";
exit($failed ? 1 : 0);
