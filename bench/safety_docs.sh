#!/usr/bin/env bash
# docs/redlock.md quotes bench/results/safety.md between its safety markers.
set -euo pipefail
cd "$(dirname "$0")/.."
php -r '
    $doc = file_get_contents("docs/redlock.md");
    $table = rtrim(file_get_contents("bench/results/safety.md"));
    $new = preg_replace_callback("~(<!-- safety: bench/results/safety.md -->\n).*?(<!-- /safety -->)~s",
        fn($m) => $m[1] . $table . "\n" . $m[2], $doc, 1);
    file_put_contents("docs/redlock.md", $new);'
