<?php
/*
 * The tables of builds.sh, from its samples: per scenario the median of the
 * rounds for OLD and NEW with their interquartile range, the ratio NEW/OLD
 * of the medians, and the spread of the per-round ratios (each round's NEW
 * against the same round's OLD), by which a reader tells noise from change.
 *   php builds_report.php SAMPLES
 * SAMPLES: lines "ROUND old|new SCENARIO VALUE" (builds_round.php's lines,
 * prefixed).
 */
[, $file] = $argv;
$samples = [];
foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    [$round, $build, $scenario, $value] = explode(' ', $line);
    $samples[$scenario][$build][(int)$round] = (float)$value;
}

/** The $p quantile of $xs, interpolated between the two nearest ranks. */
require __DIR__ . '/quantile.php';

$scenarios = [
    'lock + unlock cycle, us per cycle (a round: the fastest of its 20 slices)' => [
        'cycle-1' => 'RedisLock, 1 node', 'cycle-3' => 'RedLock, 3 nodes', 'cycle-5' => 'RedLock, 5 nodes'],
    'handoff, release to the next waiter, us (the median of a round)' => [
        'handoff-1' => '1 waiter', 'handoff-4' => '4 waiters'],
];
$range = fn(array $xs, string $f) => sprintf("[$f-$f]", quantile($xs, 0.25), quantile($xs, 0.75));
foreach ($scenarios as $title => $rows) {
    echo "\n## $title\n";
    printf("%-18s %6s %22s %22s %8s %14s %12s\n", 'scenario', 'rounds', 'OLD median [IQR]', 'NEW median [IQR]',
        'NEW/OLD', 'per-round IQR', 'min-max');
    foreach ($rows as $key => $label) {
        if (!isset($samples[$key]['old'], $samples[$key]['new'])) {
            continue;
        }
        [$old, $new] = [$samples[$key]['old'], $samples[$key]['new']];
        $ratios = [];
        foreach ($old as $round => $o) {
            if (isset($new[$round]) && $o > 0) {
                $ratios[] = $new[$round] / $o;
            }
        }
        printf("%-18s %6d %8.1f %13s %8.1f %13s %8.3f %14s %12s\n", $label, count($ratios),
            quantile($old, 0.5), $range($old, '%.1f'), quantile($new, 0.5), $range($new, '%.1f'),
            quantile($new, 0.5) / quantile($old, 0.5), $range($ratios, '%.2f'),
            sprintf('%.2f-%.2f', min($ratios), max($ratios)));
    }
}
echo "\n(NEW/OLD: the ratio of the medians; per-round: each round's NEW over the same round's OLD.\n"
   . " A change is real when the per-round ratios stay on one side of 1.00; same code twice gives about 1.00.)\n";
