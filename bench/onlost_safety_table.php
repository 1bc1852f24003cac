<?php
/* bench/onlost_safety.sh's table: the runs' JSON lines without and with
 * on_lost, summed per fault, mode and auto_extend. */
[$without, $with] = [$argv[1], $argv[2]];
$rows = [];
foreach (['none' => $without, 'throw' => $with] as $ol => $file) {
    foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $r = json_decode($line, true);
        if (!is_array($r) || !isset($r['fault'])) {
            continue;
        }
        $k = "{$r['fault']} | {$r['mode']} | " . ($r['auto_extend'] ? 'on' : 'off');
        $rows[$k][$ol]['sections'] = ($rows[$k][$ol]['sections'] ?? 0) + $r['sections'];
        $rows[$k][$ol]['overlaps'] = ($rows[$k][$ol]['overlaps'] ?? 0) + $r['overlaps'];
    }
}
echo "| fault | mode | auto_extend | sections | stale writes | sections, on_lost | stale writes, on_lost |\n";
echo "|---|---|---|---|---|---|---|\n";
$sum = ['none' => 0, 'throw' => 0];
foreach ($rows as $k => $v) {
    printf("| %s | %d | %d | %d | %d |\n", $k, $v['none']['sections'] ?? 0, $v['none']['overlaps'] ?? 0,
           $v['throw']['sections'] ?? 0, $v['throw']['overlaps'] ?? 0);
    $sum['none'] += $v['none']['overlaps'] ?? 0;
    $sum['throw'] += $v['throw']['overlaps'] ?? 0;
}
printf("| all | | | | %d | | %d |\n", $sum['none'], $sum['throw']);
