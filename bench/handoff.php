<?php
/*
 * Handoff latency: from one holder's release to the next holder's acquire,
 * with 1, 4 and 16 waiters, for the extension (woken at release) and for
 * polling at Laravel's (250 ms) and Symfony's (100 ms) intervals.
 *   php handoff.php HOST:PORT EXT_SO
 * All contenders run the same loop: take, hold, release, pause. The pause is
 * shorter than the hold (so every contender is waiting again at the next
 * release) and longer than the slowest handoff of the implementation (so the
 * releaser does not take the lock straight back). A handoff is the gap
 * between a release and the next acquire, counted when that acquirer was
 * already waiting at the release.
 */
[, $server, $ext] = $argv;

function run_contenders(string $impl, int $contenders, int $holds, int $holdMs, string $server, string $ext): array
{
    $dir = sys_get_temp_dir() . '/rl-handoff-' . bin2hex(random_bytes(4));
    mkdir($dir);
    $procs = [];
    for ($i = 0; $i < $contenders; $i++) {
        $cmd = [PHP_BINARY, '-d', "extension=$ext", __DIR__ . '/handoff_worker.php', $impl, $server, (string)$holds,
                (string)$holdMs, (string)($holdMs - 5), "$dir/$i"];
        $procs[] = proc_open($cmd, [0 => ["file", "/dev/null", "r"], 1 => ["file", "/dev/null", "w"], 2 => STDERR], $pipes);
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

$pct = fn(array $xs, float $p) => $xs[min(count($xs) - 1, (int)floor($p * count($xs)))];
printf("%-28s %8s %10s %12s %12s\n", 'implementation', 'waiters', 'handoffs', 'median ms', 'p90 ms');
foreach ([1, 4, 16] as $waiters) {
    foreach (['ext' => 'redislock (woken at release)', 'poll-100' => 'polling 100 ms (Symfony)', 'poll-250' => 'polling 250 ms (Laravel)'] as $impl => $label) {
        $holdMs = $impl === 'ext' ? 10 : (int)(substr($impl, 5) * 1.2);
        $holds = max(4, intdiv($impl === 'ext' ? 300 : 30, $waiters + 1));
        $gaps = run_contenders($impl, $waiters + 1, $holds, $holdMs, $server, $ext);
        printf("%-28s %8d %10d %12.3f %12.3f\n", $label, $waiters, count($gaps), $pct($gaps, 0.5), $pct($gaps, 0.9));
    }
}
