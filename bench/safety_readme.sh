#!/usr/bin/env bash
# README quotes bench/results/safety.md between its safety markers.
set -euo pipefail
cd "$(dirname "$0")/.."
php -r '
    $readme = file_get_contents("README.md");
    $table = rtrim(file_get_contents("bench/results/safety.md"));
    $new = preg_replace_callback("~(<!-- safety: bench/results/safety.md -->\n).*?(<!-- /safety -->)~s",
        fn($m) => $m[1] . $table . "\n" . $m[2], $readme, 1);
    file_put_contents("README.md", $new);'
