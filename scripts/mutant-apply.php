<?php
/*
 * Applies one mutant (scripts/mutants/NN-name.mut) to the tree at DIR.
 *
 *   php scripts/mutant-apply.php MUTANT DIR       apply it (exit 1: it does not apply)
 *   php scripts/mutant-apply.php --lint MUTANT    check its form only
 *
 * A mutant file: comment lines "# breaks: ..." (what the bug breaks, for
 * the table) and "# phpt: PATH ..." (the phpt tests or folders that
 * should kill it), then one or more sections
 *     @@ path/in/the/tree
 *     -an original line, exactly as in the file (indentation too)
 *     +its replacement
 * A run of "-" lines then a run of "+" lines is one edit (several lines
 * replaced by several; no "+" lines: deleted). Each edit's original lines
 * must occur exactly once in the file, so a mutant never lands where it
 * was not meant to, and never silently stops applying when the code moves.
 * Prints the files it changed, one a line.
 */

function fail(string $msg): never
{
    fwrite(STDERR, "mutant-apply: $msg\n");
    exit(1);
}

/** @return array{meta: array<string,string>, edits: list<array{file:string, from:list<string>, to:list<string>}>} */
function parse_mutant(string $path): array
{
    $lines = @file($path, FILE_IGNORE_NEW_LINES);
    if ($lines === false) {
        fail("cannot read $path");
    }
    $meta = [];
    $edits = [];
    $file = null;
    $ci = null; // the edit being read
    foreach ($lines as $no => $line) {
        $where = basename($path) . ':' . ($no + 1);
        if ($file === null && preg_match('/^# (\w+): (.*)$/', $line, $m)) {
            $meta[$m[1]] = trim($m[2]);
            continue;
        }
        if ($file === null && ($line === '' || $line[0] === '#')) {
            continue;
        }
        if (str_starts_with($line, '@@ ')) {
            $file = trim(substr($line, 3));
            $ci = null;
            continue;
        }
        if ($file === null) {
            fail("$where: a line before the first '@@ FILE'");
        }
        $sign = $line[0] ?? '';
        $text = substr($line, 1);
        if ($sign === '-') {
            if ($ci === null || $edits[$ci]['to'] !== []) {
                $edits[] = ['file' => $file, 'from' => [], 'to' => []];
                $ci = count($edits) - 1;
            }
            $edits[$ci]['from'][] = $text;
        } elseif ($sign === '+') {
            if ($ci === null) {
                fail("$where: a '+' line with no '-' line before it");
            }
            $edits[$ci]['to'][] = $text;
        } else {
            fail("$where: not '-', '+' or '@@': " . var_export($line, true));
        }
    }
    if ($edits === []) {
        fail(basename($path) . ": no edit");
    }
    foreach (['breaks', 'phpt'] as $k) {
        if (($meta[$k] ?? '') === '') {
            fail(basename($path) . ": no '# $k: ...' line");
        }
    }
    return ['meta' => $meta, 'edits' => $edits];
}

/** The indexes where the lines $from start in $lines. */
function occurrences(array $lines, array $from): array
{
    $at = [];
    $n = count($from);
    for ($i = 0, $last = count($lines) - $n; $i <= $last; $i++) {
        if (array_slice($lines, $i, $n) === $from) {
            $at[] = $i;
        }
    }
    return $at;
}

$args = array_slice($argv, 1);
if (($args[0] ?? '') === '--lint') {
    parse_mutant($args[1] ?? fail('usage: --lint MUTANT'));
    exit(0);
}
if (count($args) !== 2) {
    fail('usage: mutant-apply.php MUTANT DIR | --lint MUTANT');
}
[$mutant, $dir] = $args;
$m = parse_mutant($mutant);
$changed = [];
foreach ($m['edits'] as $e) {
    $path = "$dir/{$e['file']}";
    $text = @file_get_contents($path);
    if ($text === false) {
        fail(basename($mutant) . ": no file {$e['file']}");
    }
    $lines = explode("\n", $text);
    $at = occurrences($lines, $e['from']);
    if (count($at) !== 1) {
        fail(sprintf("%s: the lines to replace occur %d times in %s (must be once): %s", basename($mutant),
            count($at), $e['file'], $e['from'][0]));
    }
    array_splice($lines, $at[0], count($e['from']), $e['to']);
    file_put_contents($path, implode("\n", $lines));
    $changed[$e['file']] = true;
}
echo implode("\n", array_keys($changed)), "\n";
