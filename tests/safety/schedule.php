<?php
/*
 * Runs a schedule of safety rows and prints the table (markdown).
 *
 *   php -d extension=redislock.so tests/safety/schedule.php [--seconds=S] [--seeds=A,B,...]
 *       [--modes=m1,m2] [--faults=f1,f2] [--workers=N] [--auto-extend=both|off|on|alternate] [--out=FILE]
 *
 * Every (mode, fault, auto_extend) row whose mode has the fault runs once
 * per seed (--auto-extend=alternate: one of off and on per mode and fault,
 * in turn, for a short schedule); a failing run is reproduced by its row
 * and seed: --modes=M --faults=F --auto-extend=on|off --seeds=SEED. Also
 * prints one JSON line per run on stderr. Exit status 1 when a row breaks
 * what must hold whatever the fault (rl_safety_expected()).
 */
require_once __DIR__ . '/run.php';

/**
 * What must hold, by row: a fenced store never accepts a stale write, and
 * no lock is left without a TTL. (Fencing orders the writes; it cannot keep
 * a read-modify-write from going stale when the old holder writes first,
 * so lost updates are expected wherever overlaps are.) Without
 * fencing, overlaps are expected where the theory predicts them (a holder
 * paused past its TTL; a restart that loses the lock) and nowhere else.
 */
function rl_safety_expected(array $r): array
{
    $broken = [];
    $fenced = rl_safety_modes()[$r['mode']]['fencing'];
    $predicted = $r['overlaps_predicted'];
    if ($fenced && $r['stale_accepted'] > 0) {
        $broken[] = "{$r['stale_accepted']} stale writes accepted by the fenced store";
    }
    if (!$predicted && $r['overlaps'] > 0) {
        $broken[] = "{$r['overlaps']} overlaps where none is predicted";
    }
    if (!$predicted && $r['lost_updates'] > 0) {
        $broken[] = "{$r['lost_updates']} lost updates where none is predicted";
    }
    if ($r['never_released'] > 0) {
        $broken[] = "{$r['never_released']} lock keys left without a TTL";
    }
    if ($r['failed_quorum_up'] > 0 && $r['fault'] !== 'holder-pause') {
        $broken[] = "{$r['failed_quorum_up']} calls failed while a quorum was up";
    }
    if ($r['cycles'] === 0) {
        $broken[] = 'no critical section ran';
    }
    return $broken;
}

$opt = getopt('', ['seconds:', 'seeds:', 'modes:', 'faults:', 'workers:', 'auto-extend:', 'out:']);
$seconds = (float)($opt['seconds'] ?? 4);
$seeds = array_map('intval', explode(',', $opt['seeds'] ?? '1'));
$modes = isset($opt['modes']) ? explode(',', $opt['modes']) : array_keys(rl_safety_modes());
$faults = isset($opt['faults']) ? explode(',', $opt['faults']) : rl_safety_faults();
$autoExtend = $opt['auto-extend'] ?? 'both';
in_array($autoExtend, ['both', 'off', 'on', 'alternate'], true) || throw new ValueError("--auto-extend: both, off, on or alternate");
foreach ($modes as $m) isset(rl_safety_modes()[$m]) || throw new ValueError("unknown mode $m");
foreach ($faults as $f) in_array($f, rl_safety_faults(), true) || throw new ValueError("unknown fault $f");
$workers = (int)($opt['workers'] ?? 4);

$keys = ['cycles', 'overlaps', 'stale_accepted', 'stale_refused', 'lost_updates', 'unlock_false', 'never_released',
         'failed_calls', 'failed_quorum_up'];
$lines = ['| fault | mode | auto_extend | overlaps predicted | runs | cycles | overlaps | stale writes accepted | stale writes refused'
          . ' | lost updates | unlock false | never released | failed calls | failed with quorum up | verdict |',
          '|' . str_repeat('---|', 15)];
$bad = 0;
$started = microtime(true);
$turn = 0;
foreach ($faults as $fault) {
    foreach ($modes as $mode) {
        if (!in_array($fault, rl_safety_modes()[$mode]['class']::faults(), true)) {
            continue;
        }
        $autos = match ($autoExtend) {
            'both' => [false, true], 'off' => [false], 'on' => [true],
            'alternate' => [($turn++ + $seeds[0]) % 2 === 1],
        };
        foreach ($autos as $auto) {
            $sum = array_fill_keys($keys, 0);
            $why = [];
            foreach ($seeds as $seed) {
                $r = rl_safety_run(['mode' => $mode, 'fault' => $fault, 'auto_extend' => $auto, 'seed' => $seed,
                                    'seconds' => $seconds, 'workers' => $workers]);
                fwrite(STDERR, json_encode($r) . "\n");
                foreach ($keys as $k) $sum[$k] += $r[$k];
                foreach (rl_safety_expected($r) as $b) $why[] = "seed $seed: $b";
            }
            $bad += $why !== [];
            $lines[] = "| $fault | $mode | " . ($auto ? 'on' : 'off') . ' | ' . ($r['overlaps_predicted'] ? 'yes' : 'no')
                . ' | ' . count($seeds) . ' | '
                . implode(' | ', array_map(fn($k) => $sum[$k], $keys)) . ' | '
                . ($why === [] ? 'as predicted' : 'BROKEN: ' . implode('; ', $why)) . ' |';
            echo end($lines), "\n";
        }
    }
}
$summary = sprintf('%d rows, %d runs of %.1f s with %d workers, seeds %s, %.0f s in all: %d rows broken',
                   count($lines) - 2, (count($lines) - 2) * count($seeds), $seconds, $workers, implode(',', $seeds),
                   microtime(true) - $started, $bad);
echo $summary, "\n";
if (isset($opt['out'])) {
    file_put_contents($opt['out'], implode("\n", $lines) . "\n\n$summary\n");
}
exit($bad ? 1 : 0);
