<?php
/*
 * Joins the tables of several schedule.php runs (--out files) into one:
 * the header once, every row, then each run's summary line.
 *   php bench/safety_table.php PART.md... > bench/results/safety.md
 */
$rows = $summaries = [];
$header = null;
foreach (array_slice($argv, 1) as $file) {
    $lines = file($file, FILE_IGNORE_NEW_LINES) ?: throw new RuntimeException("cannot read $file");
    $header ??= array_slice($lines, 0, 2);
    foreach (array_slice($lines, 2) as $line) {
        if (str_starts_with($line, '| ')) {
            $rows[] = $line;
        } elseif (trim($line) !== '') {
            $summaries[] = $line;
        }
    }
}
echo implode("\n", [...$header, ...$rows]), "\n\n", implode("\n\n", $summaries), "\n";
