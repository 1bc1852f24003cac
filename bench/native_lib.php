<?php
/*
 * Shared by native_release.php and native_handoff.php: the server's native
 * release, and a user that gets the script instead.
 */

/**
 * Connects phpredis to $addr (HOST:PORT) as $admin and finds its native
 * release ('delifeq' or 'delex'; exits 2 when it has neither), then makes
 * the user bench_script (password bench) whose ACL lacks it: the extension
 * logged in as that user releases by the script. Returns the command's name.
 */
function bench_native_setup(string $addr, string $bench, ?Redis &$admin): string
{
    [$host, $port] = explode(':', $addr);
    $admin = new Redis();
    $admin->connect($host, (int)$port);
    $names = array_map('strtolower', (array)$admin->rawCommand('COMMAND', 'LIST', 'FILTERBY', 'PATTERN', 'del*'));
    $native = in_array('delifeq', $names, true) ? 'delifeq' : (in_array('delex', $names, true) ? 'delex' : null);
    if ($native === null) {
        fwrite(STDERR, "$bench: $addr has neither DELEX nor DELIFEQ\n");
        exit(2);
    }
    $admin->rawCommand('ACL', 'SETUSER', 'bench_script', 'on', '>bench', '~*', '&*', '+@all', "-$native");
    return $native;
}
