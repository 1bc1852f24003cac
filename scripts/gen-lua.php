<?php
/*
 * The lock scripts' Lua, from src/lock/lua/ into src/lock/rl_scripts_lua.h
 * (C string literals that src/lock/rl_scripts.c includes). Like the arginfo,
 * the output is committed and CI runs this with --check, so the two cannot
 * drift.
 *
 *   php scripts/gen-lua.php [--check]
 *
 * A script is src/lock/lua/NAME.lua (RL_SCRIPT_NAME). A line
 *     --@ fragment(arg, ...)
 * puts src/lock/lua/lib/fragment.lua there, on that one line, with each of
 * its parameters (its line "--@params a b") written $a replaced by the
 * argument: a Lua expression, split at the commas outside brackets and
 * quotes. A fragment can name another. Comment lines go out empty, so a
 * script keeps its line numbers: a Redis error at user_script:12 is line 12
 * of the .lua file.
 *
 * Every script names its KEYS in order on a line
 *     --@keys lock queue reservation fence? shared? wake*
 * (roles: lock, queue, reservation, fence, shared, wake; "?" a key the
 * caller may leave out, only after the others; "wake" the waiter's own
 * wake stream (of its id's bucket), "wake*" all the wake streams,
 * last): that becomes the script's entry of keys[], from which
 * src/lock/rl_lockops.c builds the command, so the order of KEYS is
 * written once.
 *
 * The names of the scripts, the enum rl_script, go to
 * src/lock/rl_scripts_enum.h (included by rl_scripts.h): a new script is
 * its .lua file alone.
 */

const LUA_DIR = __DIR__ . '/../src/lock/lua';
const OUT = __DIR__ . '/../src/lock/rl_scripts_lua.h';
const ENUM_OUT = __DIR__ . '/../src/lock/rl_scripts_enum.h';

function fail(string $msg): never
{
    fwrite(STDERR, "gen-lua: $msg\n");
    exit(2);
}

/** Splits a fragment's arguments at the commas outside brackets and quotes. */
function split_args(string $s): array
{
    $out = [];
    $cur = '';
    $depth = 0;
    $quote = null;
    for ($i = 0, $n = strlen($s); $i < $n; $i++) {
        $c = $s[$i];
        if ($quote !== null) {
            $cur .= $c;
            if ($c === '\\' && $i + 1 < $n) {
                $cur .= $s[++$i];
            } elseif ($c === $quote) {
                $quote = null;
            }
            continue;
        }
        if ($c === "'" || $c === '"') {
            $quote = $c;
        } elseif ($c === '(' || $c === '[' || $c === '{') {
            $depth++;
        } elseif ($c === ')' || $c === ']' || $c === '}') {
            $depth--;
        } elseif ($c === ',' && $depth === 0) {
            $out[] = trim($cur);
            $cur = '';
            continue;
        }
        $cur .= $c;
    }
    if ($quote !== null || $depth !== 0) {
        fail("unbalanced arguments: ($s)");
    }
    $out[] = trim($cur);
    return $s === '' ? [] : $out;
}

/** A "--@ name(args)" line, or null. */
function directive(string $line): ?array
{
    if (!preg_match('/^\s*--@ (\w+)(?:\((.*)\))?\s*$/', $line, $m)) {
        return null;
    }
    return [$m[1], split_args($m[2] ?? '')];
}

/** Fragment $name with $args, as one line of Lua. */
function fragment(string $name, array $args, array $seen = []): string
{
    $file = LUA_DIR . "/lib/$name.lua";
    if (in_array($name, $seen, true)) {
        fail("fragment $name includes itself (" . implode(' > ', $seen) . ")");
    }
    if (!is_file($file)) {
        fail("no fragment $name (lib/$name.lua)");
    }
    $params = [];
    $code = [];
    foreach (file($file, FILE_IGNORE_NEW_LINES) as $no => $line) {
        if (preg_match('/^--@params((?: \w+)*)\s*$/', $line, $m)) {
            $params = preg_split('/\s+/', trim($m[1]), -1, PREG_SPLIT_NO_EMPTY);
            continue;
        }
        $code[] = [$no + 1, $line];
    }
    if (count($args) !== count($params)) {
        fail("$name takes " . count($params) . " arguments (" . implode(', ', $params) . "), given " . count($args));
    }
    $bind = array_combine($params, $args);
    $subst = function (string $s) use ($bind, $name): string {
        return preg_replace_callback('/\$(\w+)/', function ($m) use ($bind, $name) {
            return $bind[$m[1]] ?? fail("lib/$name.lua: no parameter \$$m[1]");
        }, $s);
    };
    $parts = [];
    foreach ($code as [$no, $line]) {
        if (($d = directive($line)) !== null) {
            $parts[] = fragment($d[0], array_map($subst, $d[1]), [...$seen, $name]);
        } elseif (preg_match('/^\s*--/', $line) || trim($line) === '') {
            continue;
        } elseif (str_contains($line, '--')) {
            // its lines are joined into one: a trailing comment would end the rest
            fail("lib/$name.lua:$no: no comment after code in a fragment");
        } else {
            $parts[] = trim($subst($line));
        }
    }
    return implode(' ', $parts);
}

/** The script's "--@keys" line as a C initializer of rl_script_keys. */
function keys_of(string $file): string
{
    $roles = ['lock' => 'RL_KEY_LOCK', 'queue' => 'RL_KEY_QUEUE', 'reservation' => 'RL_KEY_RESERVATION',
              'fence' => 'RL_KEY_FENCE', 'shared' => 'RL_KEY_SHARED', 'wake*' => 'RL_KEY_WAKE',
              'wake' => 'RL_KEY_OWN_WAKE'];
    $found = preg_grep('/^--@keys /', file($file, FILE_IGNORE_NEW_LINES));
    if (count($found) !== 1) {
        fail(basename($file) . ': needs one "--@keys" line');
    }
    $names = preg_split('/\s+/', trim(substr(reset($found), 8)));
    $c = [];
    $optional = 0;
    foreach ($names as $i => $n) {
        $opt = str_ends_with($n, '?');
        $role = $roles[rtrim($n, '?')] ?? fail(basename($file) . ": no key role $n (" . implode(', ', array_keys($roles)) . ')');
        if ($opt) {
            $optional |= 1 << $i;
        } elseif ($optional) {
            fail(basename($file) . ": $n after a key that may be left out");
        }
        if ($role === 'RL_KEY_WAKE' && ($opt || $i !== count($names) - 1)) {
            fail(basename($file) . ': wake* is last, and always there');
        }
        $c[] = $role;
    }
    return sprintf('{%d, {%s}, 0x%x}', count($c), implode(', ', $c), $optional);
}

/** A script's Lua, line for line with its file. */
function script(string $file): array
{
    $lines = [];
    foreach (file($file, FILE_IGNORE_NEW_LINES) as $line) {
        if (($d = directive($line)) !== null) {
            $lines[] = str_repeat(' ', strspn($line, ' ')) . fragment($d[0], $d[1]);
        } elseif (preg_match('/^\s*--/', $line)) {
            $lines[] = '';
        } else {
            $lines[] = rtrim($line);
        }
    }
    while ($lines && end($lines) === '') {
        array_pop($lines);
    }
    return $lines;
}

function c_literal(string $s): string
{
    return '"' . addcslashes($s, "\\\"\n") . '"';
}

$files = glob(LUA_DIR . '/*.lua');
sort($files);
if (!$files) {
    fail('no scripts in ' . LUA_DIR);
}
$out = "/* Generated by scripts/gen-lua.php from src/lock/lua/: do not edit (edit the\n"
     . " * .lua files and run the generator; CI checks they agree). Included by\n"
     . " * rl_scripts.c: each script's Lua, line for line with its file, and its KEYS. */\n"
     . "static const rl_script_keys keys[RL_SCRIPT_COUNT] = {\n";
foreach ($files as $file) {
    $out .= '    [RL_SCRIPT_' . strtoupper(basename($file, '.lua')) . '] = ' . keys_of($file) . ",\n";
}
$out .= "};\n\nstatic const char *const sources[RL_SCRIPT_COUNT] = {\n";
foreach ($files as $file) {
    $name = 'RL_SCRIPT_' . strtoupper(basename($file, '.lua'));
    $lines = script($file);
    $out .= "[$name] =\n";
    $blank = ''; // the empty lines (comments) before a line of code go in its literal
    foreach ($lines as $i => $line) {
        if ($line === '') {
            $blank .= "\n";
            continue;
        }
        $out .= '    ' . c_literal($blank . $line . ($i + 1 < count($lines) ? "\n" : '')) . "\n";
        $blank = '';
    }
    $out = rtrim($out, "\n") . ",\n";
}
$out .= "};\n";

$enum = "/* Generated by scripts/gen-lua.php from src/lock/lua/: do not edit. Included\n"
      . " * by rl_scripts.h: a script's name is its file's (what it does is at its\n"
      . " * top). */\n"
      . "typedef enum rl_script {\n";
foreach ($files as $file) {
    $enum .= '    RL_SCRIPT_' . strtoupper(basename($file, '.lua')) . ', /* lua/' . basename($file) . " */\n";
}
$enum .= "    RL_SCRIPT_COUNT\n} rl_script;\n";

$outputs = [OUT => $out, ENUM_OUT => $enum];
if (in_array('--check', $argv, true)) {
    foreach ($outputs as $path => $text) {
        if (!is_file($path) || file_get_contents($path) !== $text) {
            fwrite(STDERR, 'gen-lua: src/lock/' . basename($path) . " is not what src/lock/lua/ makes: run php scripts/gen-lua.php\n");
            exit(1);
        }
    }
    exit(0);
}
foreach ($outputs as $path => $text) {
    file_put_contents($path, $text);
}
