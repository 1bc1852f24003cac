<?php
/*
 * Lists each overlap of a kept safety history (REDISLOCK_SAFETY_KEEP=DIR:
 * one folder per run, its w*.jsonl and windows.json): the two sections
 * whose store operations interleave, what the first holder knew and when,
 * and why its write got through. For reading a row's remaining stale
 * writes by hand (issue 34's on_lost rows).
 *
 *   php tests/safety/overlaps.php DIR...
 *
 * Times are ms from the first section's grant (c1). Why, first that fits:
 *   forgot     the write began inside the holder's own validity: a server
 *              forgot the lock (restart, failover) and nothing asked it since
 *   told-late  the holder's loss was told after its write began (the write
 *              began after the validity ended: the holder was stopped
 *              between its last look and the write, or in a blocking call)
 *   not-told   the write began after the validity ended and no loss was
 *              told in that section
 */
require_once __DIR__ . '/history.php';

foreach (array_slice($argv, 1) as $dir) {
    $records = rl_safety_read(glob("$dir/w*.jsonl"));
    $windows = json_decode((string)@file_get_contents("$dir/windows.json"), true) ?: [];
    $sections = array_values(array_filter($records, fn($r) => isset($r['c1']) && !in_array($r['op'], ['timeout', 'error'], true)));
    foreach (['safety', 'other'] as $res) {
        $on = array_values(array_filter(rl_safety_on($sections, $res), fn($s) => isset($s['data'][$res]) && $s['op'] !== 'shared'));
        usort($on, fn($a, $b) => $a['data'][$res]['t0'] <=> $b['data'][$res]['t0']);
        for ($i = 0; $i + 1 < count($on); $i++) {
            [$a, $b] = [$on[$i], $on[$i + 1]];
            if ($b['data'][$res]['t0'] >= $a['data'][$res]['t1']) {
                continue;
            }
            $ms = fn(?int $t) => $t === null ? '-' : sprintf('%.1f', ($t - $a['c1']) / 1000);
            $d = $a['data'][$res];
            // the holder's own validity: from its grant, or its last view with validity left (auto_extend)
            $validEnd = $a['c1'] + $a['ttl'] * 1000;
            foreach ($a['obs'] ?? [] as [$at, $left]) {
                $validEnd = $left > 0 ? max($validEnd, $at + $left * 1000) : $validEnd;
            }
            $lostAt = $a['lost']['at'] ?? null;
            $why = $d['wr0'] <= $validEnd ? 'forgot' : ($lostAt !== null ? 'told-late' : 'not-told');
            $faults = implode(',', array_map(fn($w) => "{$w['fault']}@" . $ms($w['start']) . '..' . $ms($w['end']),
                array_filter($windows, fn($w) => $w['start'] <= $b['c1'] && $w['end'] >= $a['c0'] - 2000000)));
            printf("%s %s: %s w%s (%s ae=%d ttl %d) write %s..%s, validity end %s, told %s%s | w%s granted %s | faults %s\n",
                basename($dir), $res, $why, $a['w'], $a['op'], $a['ae'] ? 1 : 0, $a['ttl'], $ms($d['wr0']), $ms($d['wr1'] ?? null),
                $ms($validEnd), $ms($lostAt), $lostAt !== null ? " ({$a['lost']['why']})" : '', $b['w'], $ms($b['c1']), $faults ?: 'none');
        }
    }
}
