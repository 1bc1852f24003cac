<?php
/*
 * Formats bench/server_cost.php's TSV (stdin): per server, each scenario's
 * commands, execution usec (commandstats) and process CPU usec per cycle,
 * each against the floor (a bare SET NX PX + DEL on that server), and what
 * the CPU figure gives: lock cycles per second one master core can serve.
 *   php bench/server_cost_table.php < TSV
 */
$rows = [];
$head = null;
while (($line = fgets(STDIN)) !== false) {
    $f = explode("\t", rtrim($line, "\n"));
    if ($head === null) {
        $head = $f;
        continue;
    }
    $rows[$f[0]][] = array_combine($head, $f);
}
foreach ($rows as $server => $list) {
    $floor = null;
    foreach ($list as $r) {
        if (str_starts_with($r['scenario'], 'floor: ')) {
            $floor = $r;
        }
    }
    echo "\n## $server\n";
    printf("%-38s %5s %6s %8s %6s %8s %6s %12s  %s\n", 'scenario', 'nodes', 'calls', 'exec_us', 'xfloor', 'cpu_us', 'xfloor',
        'cycles/s/core', 'commands sent (per cycle)');
    foreach ($list as $r) {
        $perNode = $r['cpu_usec'] / $r['nodes'];
        printf("%-38s %5d %6.2f %8.2f %6s %8.2f %6s %12s  %s\n", $r['scenario'], $r['nodes'], $r['calls'], $r['usec'],
            $floor ? sprintf('%.2f', $r['usec'] / $floor['usec']) : '-', $r['cpu_usec'],
            $floor ? sprintf('%.2f', $r['cpu_usec'] / $floor['cpu_usec']) : '-',
            number_format(1e6 / max($perNode, 0.01)), $r['commands']);
    }
}
echo "\n(exec_us: commandstats usec a cycle's commands took to execute, a script's own commands inside its figure;\n"
   . " cpu_us: the server process's CPU (user + sys) per cycle, reading and writing included, summed over the nodes;\n"
   . " cycles/s/core: 1e6 / cpu_us per node, the cycles one master core could serve at this cost;\n"
   . " contended rows: per acquisition, two clients taking one resource in turn.)\n";
