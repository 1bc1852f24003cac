<?php
/*
 * Runs a schedule of safety rows and prints the table (markdown).
 *
 *   php -d extension=redislock.so tests/safety/schedule.php [--seconds=S] [--seeds=A,B,...]
 *       [--modes=m1,m2] [--faults=f1,f2] [--workers=N] [--auto-extend=both|off|on|alternate]
 *       [--fencing=both|alternate] [--retries=N] [--out=FILE] [--stop-on-broken] [--judge-fifo]
 *       [--on-lost=throw]
 *
 * Every (mode, fault, auto_extend) row whose mode has the fault runs once
 * per seed (--auto-extend=alternate: one of off and on per mode and fault,
 * in turn, for a short schedule; --fencing=alternate: of a mode given with
 * and without fencing, one a fault, in turn); a failing run is reproduced by its row
 * and seed: --modes=M --faults=F --auto-extend=on|off --seeds=SEED. A run
 * whose fault is predicted to break something (history.php) and did not
 * show it runs again with the seed + 1000, up to --retries (2) times, and
 * the row says "not shown" if it never did. Also prints one JSON line per
 * run on stderr. Exit status 1 when a run broke what must hold
 * (rl_safety_broken()); --stop-on-broken stops at the first such row (a
 * mutant's check: one broken row is the verdict). --judge-fifo (or
 * REDISLOCK_SAFETY_JUDGE_FIFO=1) also judges waits overtaken, which
 * assumes a fair scheduler (history.php): the long schedule and mutants.
 */
require_once __DIR__ . '/run.php';

$opt = getopt('', ['seconds:', 'seeds:', 'modes:', 'faults:', 'workers:', 'auto-extend:', 'out:', 'retries:', 'fencing:', 'stop-on-broken',
                   'judge-fifo', 'on-lost:']);
$fifo = isset($opt['judge-fifo']) || getenv('REDISLOCK_SAFETY_JUDGE_FIFO') === '1';
// --on-lost=throw: the workers' locks have option on_lost 'throw' (issue 34's rows)
$onLost = $opt['on-lost'] ?? null;
in_array($onLost, [null, 'throw'], true) || throw new ValueError("--on-lost: throw");
$seconds = (float)($opt['seconds'] ?? 4);
$seeds = array_map('intval', explode(',', $opt['seeds'] ?? '1'));
$modes = isset($opt['modes']) ? explode(',', $opt['modes']) : array_keys(rl_safety_modes());
$faults = isset($opt['faults']) ? explode(',', $opt['faults']) : rl_safety_faults();
$autoExtend = $opt['auto-extend'] ?? 'both';
$retries = (int)($opt['retries'] ?? 2);
$fencing = $opt['fencing'] ?? 'both';
in_array($fencing, ['both', 'alternate'], true) || throw new ValueError("--fencing: both or alternate");
in_array($autoExtend, ['both', 'off', 'on', 'alternate'], true) || throw new ValueError("--auto-extend: both, off, on or alternate");
foreach ($modes as $m) isset(rl_safety_modes()[$m]) || throw new ValueError("unknown mode $m");
foreach ($faults as $f) in_array($f, rl_safety_faults(), true) || throw new ValueError("unknown fault $f");
$workers = (int)($opt['workers'] ?? 4);

$keys = ['windows', 'sections', 'exclusion', 'exclusion_excused', 'fence_dup', 'fence_order', 'refused_unexplained',
         'fence_excused', 'overlaps', 'overlaps_on_time', 'late_writes', 'refused', 'shared_dirty', 'lost_updates',
         'unwoken', 'waits_spanning_release', 'starved', 'overtaken', 'releases_awaited', 'wakes', 'overstated', 'stalled', 'failed_calls', 'failed_quorum_up',
         'never_released'];
$lines = ['| fault | mode | auto_extend | may break | seeds | ' . implode(' | ', str_replace('_', ' ', $keys)) . ' | verdict |',
          '|' . str_repeat('---|', 6 + count($keys))];
$bad = 0;
$started = microtime(true);
$turn = 0;
$runsDone = 0;
$faultTurn = 0;
foreach ($faults as $fault) {
    // --fencing=alternate: of a mode with and without fencing, one a fault, in turn
    $fencedThisTurn = ($faultTurn++ + $seeds[0]) % 2 === 1;
    foreach ($modes as $mode) {
        if (!in_array($fault, rl_safety_modes()[$mode]['class']::faults(), true)) {
            continue;
        }
        $twin = str_ends_with($mode, '+fencing') ? substr($mode, 0, -8) : "$mode+fencing";
        if ($fencing === 'alternate' && in_array($twin, $modes, true)
            && rl_safety_modes()[$mode]['fencing'] !== $fencedThisTurn) {
            continue;
        }
        $autos = match ($autoExtend) {
            'both' => [false, true], 'off' => [false], 'on' => [true],
            'alternate' => [($turn++ + $seeds[0]) % 2 === 1],
        };
        foreach ($autos as $auto) {
            $sum = array_fill_keys($keys, 0);
            $why = $notShown = $used = $predicted = [];
            foreach ($seeds as $seed) {
                // a run whose fault is predicted to break something and
                // showed nothing runs again with another seed, a bounded
                // number of times, and says so
                for ($try = 0; ; $try++) {
                    $s = $seed + $try * 1000;
                    $r = rl_safety_run(['mode' => $mode, 'fault' => $fault, 'auto_extend' => $auto, 'seed' => $s,
                                        'seconds' => $seconds, 'workers' => $workers, 'on_lost' => $onLost]);
                    $runsDone++;
                    fwrite(STDERR, json_encode($r) . "\n");
                    foreach (rl_safety_broken($r, $fifo) as $b) $why[] = "seed $s: $b";
                    $missing = rl_safety_shown($r, $r['predicted']);
                    if ($missing === [] || $try >= $retries) {
                        break;
                    }
                    foreach ($keys as $k) $sum[$k] += $r[$k];
                    $used[] = $s;
                }
                foreach ($keys as $k) $sum[$k] += $r[$k];
                $used[] = $s;
                $predicted = array_unique(array_merge($predicted, $r['predicted']));
                if ($missing !== []) {
                    $notShown[] = "seed $s: " . implode(', ', $missing) . ' not shown';
                }
            }
            $bad += $why !== [];
            sort($predicted);
            $verdict = $why !== [] ? 'BROKEN: ' . implode('; ', $why)
                : ($notShown !== [] ? 'holds; ' . implode('; ', $notShown) : ($predicted ? 'holds; predicted break shown' : 'holds'));
            $lines[] = "| $fault | $mode | " . ($auto ? 'on' : 'off') . ($onLost ? ", on_lost $onLost" : '') . ' | ' . (implode(', ', $predicted) ?: '-')
                . ' | ' . implode(',', $used) . ' | ' . implode(' | ', array_map(fn($k) => $sum[$k], $keys)) . " | $verdict |";
            echo end($lines), "\n";
            if ($bad && isset($opt['stop-on-broken'])) {
                break 3;
            }
        }
    }
}
$summary = sprintf('%d rows, %d runs of %.1f s with %d workers, seeds %s (a rerun adds 1000), %.0f s in all: %d rows broken',
                   count($lines) - 2, $runsDone, $seconds, $workers, implode(',', $seeds),
                   microtime(true) - $started, $bad);
echo $summary, "\n";
if (isset($opt['out'])) {
    file_put_contents($opt['out'], implode("\n", $lines) . "\n\n$summary\n");
}
exit($bad ? 1 : 0);
