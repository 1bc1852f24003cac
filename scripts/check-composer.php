<?php
/*
 * Checks composer.json, the PIE metadata: what `composer validate` checks
 * (when composer is installed; Debian 12's Composer 2.5 predates the
 * "php-ext" key and only warns about it), and PIE's own rules against the
 * build: the extension name is the module's, every configure option is one
 * config.m4 declares, ZTS support matches what configure accepts.
 *   php scripts/check-composer.php      exit 1 with the problems listed
 */
$root = dirname(__DIR__);
$problems = [];
$json = json_decode((string)file_get_contents("$root/composer.json"), true);
if (!is_array($json)) {
    fwrite(STDERR, "check-composer: composer.json is not valid JSON: " . json_last_error_msg() . "\n");
    exit(1);
}
$configM4 = (string)file_get_contents("$root/config.m4");
$packageXml = (string)file_get_contents("$root/package.xml");

if (($json['type'] ?? null) !== 'php-ext') {
    $problems[] = 'type must be "php-ext" for PIE';
}
if (!preg_match('{^[a-z0-9]([_.-]?[a-z0-9]+)*/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$}', $json['name'] ?? '')) {
    $problems[] = 'name must be vendor/package, lowercase';
}
if (!preg_match('{<license[^>]*>\s*' . preg_quote((string)($json['license'] ?? '?'), '{') . '\s*</license>}', $packageXml)) {
    $problems[] = 'license differs from package.xml';
}
preg_match('/^#define PHP_REDISLOCK_VERSION "(.*)"/m', (string)file_get_contents("$root/ext/php_redislock.h"), $v);
if (($json['version'] ?? null) !== ($v[1] ?? '')) {
    $problems[] = 'version must be the extension\'s (ext/php_redislock.h: ' . ($v[1] ?? '?') . '), as package.xml has it';
}
if (!isset($json['require']['php'])) {
    $problems[] = 'require.php missing';
}
$ext = $json['php-ext'] ?? null;
if (!is_array($ext)) {
    $problems[] = 'php-ext missing';
    $ext = [];
}
$allowed = ['extension-name', 'priority', 'support-zts', 'support-nts', 'build-path', 'download-url-method',
            'os-families', 'os-families-exclude', 'configure-options'];
foreach (array_diff(array_keys($ext), $allowed) as $k) {
    $problems[] = "php-ext.$k is not a key PIE knows";
}
preg_match('{<name>([a-z0-9_]+)</name>}', $packageXml, $m);
if (($ext['extension-name'] ?? null) !== ($m[1] ?? '') || !preg_match('/^[A-Za-z0-9_]+$/', $ext['extension-name'] ?? '')) {
    $problems[] = 'php-ext.extension-name must be the module\'s name (package.xml: ' . ($m[1] ?? '?') . ')';
}
if (isset($ext['priority']) && (!is_int($ext['priority']) || $ext['priority'] < 0 || $ext['priority'] > 99)) {
    $problems[] = 'php-ext.priority must be an integer 0..99';
}
// configure refuses ZTS when the branch taken on a thread-safe PHP stops
// with AC_MSG_ERROR (dnl comments may come first)
$refusesZts = (bool)preg_match('{if test "\$PHP_THREAD_SAFETY" = "yes"; then\s*(?:dnl[^\n]*\n\s*)*AC_MSG_ERROR}', $configM4);
if (($ext['support-zts'] ?? true) === $refusesZts) {
    $problems[] = 'php-ext.support-zts must say what configure accepts (' . ($refusesZts ? 'false' : 'true') . ')';
}
preg_match_all('{PHP_ARG_(WITH|ENABLE)\(\[([a-z0-9-]+)\]}', $configM4, $args, PREG_SET_ORDER);
$declared = array_map(fn($a) => strtolower($a[1]) . '-' . $a[2], $args);
foreach ($ext['configure-options'] ?? [] as $i => $opt) {
    if (!in_array($opt['name'] ?? '', $declared, true)) {
        $problems[] = "php-ext.configure-options[$i]: '" . ($opt['name'] ?? '') . "' is not an option of config.m4 (" . implode(', ', $declared) . ')';
    }
    if (isset($opt['needs-value']) && !is_bool($opt['needs-value'])) {
        $problems[] = "php-ext.configure-options[$i].needs-value must be a bool";
    }
    if (trim($opt['description'] ?? '') === '') {
        $problems[] = "php-ext.configure-options[$i].description is empty";
    }
}
// composer's own schema, where composer is installed (every rule but the php-ext key it may not know yet)
$composer = trim((string)shell_exec('command -v composer 2>/dev/null'));
// the bridge package beside it: its own composer.json, autoloading what is there
$bridge = json_decode((string)file_get_contents("$root/bridge/composer.json"), true);
if (!is_array($bridge)) {
    $problems[] = 'bridge/composer.json is not valid JSON';
} else {
    if (($bridge['require']['ext-redislock'] ?? null) === null) {
        $problems[] = 'bridge/composer.json must require ext-redislock';
    }
    foreach ($bridge['autoload']['psr-4'] ?? [] as $prefix => $dir) {
        if (!is_dir("$root/bridge/$dir")) {
            $problems[] = "bridge/composer.json: PSR-4 $prefix maps to a missing directory $dir";
        }
    }
    foreach ($bridge['extra']['laravel']['providers'] ?? [] as $provider) {
        $file = "$root/bridge/src/" . str_replace('\\', '/', substr($provider, strlen('RedisLock\\Bridge\\'))) . '.php';
        if (!is_file($file)) {
            $problems[] = "bridge/composer.json: the Laravel provider $provider has no file";
        }
    }
}
if ($composer !== '') {
    foreach (['composer.json' => $root, 'bridge/composer.json' => "$root/bridge"] as $name => $dir) {
        $out = [];
        exec('cd ' . escapeshellarg($dir) . ' && ' . escapeshellarg($composer) . ' validate --no-check-publish --no-check-lock --no-interaction 2>&1', $out, $rc);
        $text = implode("\n", $out);
        if ($rc !== 0 || !str_contains($text, 'is valid')) {
            $problems[] = "composer validate $name:\n$text";
        }
    }
}
if ($problems) {
    fwrite(STDERR, "check-composer: composer.json:\n- " . implode("\n- ", $problems) . "\n");
    exit(1);
}
echo "check-composer: composer.json (PIE) and bridge/composer.json valid", $composer !== '' ? ' (and composer validate)' : ' (composer not installed: schema rules only)', "\n";
