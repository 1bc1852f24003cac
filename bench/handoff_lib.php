<?php
/*
 * The handoff measurement shared by handoff.php and builds_round.php: runs
 * the contenders (handoff_worker.php, one process each, with the extension
 * EXT_SO loaded) and returns the handoffs they saw.
 */

/**
 * Runs $contenders processes of handoff_worker.php, $holds holds of $holdMs
 * each, and returns the sorted gaps (ms) between a release and the next
 * acquire, counted when that acquirer was already waiting at the release.
 */
function run_contenders(string $impl, int $contenders, int $holds, int $holdMs, string $server, string $ext): array
{
    $dir = sys_get_temp_dir() . '/rl-handoff-' . bin2hex(random_bytes(4));
    mkdir($dir);
    $procs = [];
    for ($i = 0; $i < $contenders; $i++) {
        $cmd = [PHP_BINARY, '-d', "extension=$ext", __DIR__ . '/handoff_worker.php', $impl, $server, (string)$holds,
                (string)$holdMs, (string)($holdMs - 5), "$dir/$i"];
        // stderr is inherited, not passed as STDERR: handing PHP's STDERR stream
        // over seeks the shared descriptor back, and output sent to the same
        // file (2>&1) was overwritten.
        $procs[] = proc_open($cmd, [0 => ["file", "/dev/null", "r"], 1 => ["file", "/dev/null", "w"]], $pipes);
    }
    foreach ($procs as $p) {
        proc_close($p);
    }
    $spans = [];
    for ($i = 0; $i < $contenders; $i++) {
        foreach (file("$dir/$i", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
            $spans[] = array_map('intval', explode(' ', $line));
        }
        unlink("$dir/$i");
    }
    rmdir($dir);
    usort($spans, fn($a, $b) => $a[1] <=> $b[1]);
    $gaps = [];
    for ($k = 1; $k < count($spans); $k++) {
        [$start, $acquired] = $spans[$k];
        $released = $spans[$k - 1][2];
        if ($start < $released) {
            $gaps[] = ($acquired - $released) / 1e6;
        }
    }
    sort($gaps);
    return $gaps;
}
