#!/usr/bin/env bash
# README's table of tested platforms, made from a test run, never by hand.
#
#   scripts/platform/readme-table.sh ROWS [--write] [CAPTION]
#
# ROWS: lines "platform|PHP|server|hiredis|Symfony|Laravel|PHPUnit|result",
# as scripts/test-all.sh collects them (the host's row and the matrix's).
# Prints the Markdown table, and CAPTION (the run: its counts and time)
# below it; --write also puts both into README.md between the "platforms"
# markers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
readme=$here/../../README.md
rows=${1:?usage: readme-table.sh ROWS [--write]}

describe() {   # the platform column
    case $1 in
        bookworm) echo "Debian 12, PHP NTS, Redis; valgrind pass" ;;
        trixie-redis) echo "Debian 13, Redis" ;;
        trixie-valkey) echo "Debian 13, Valkey (Sentinel, Cluster)" ;;
        sid-redis) echo "sid + experimental, Redis" ;;
        sid-valkey) echo "sid, Valkey (Sentinel, Cluster)" ;;
        sid-symfony81) echo "sid, Symfony bridge on experimental's Symfony" ;;
        sid-php86) echo "experimental, PHP dev: -Wall -Wextra, core tests" ;;
        zts) echo "thread-safe PHP: embed SAPI threads (FrankenPHP's model), phpt on its CLI" ;;
        *) echo "$1" ;;
    esac
}

table=$(
    echo "| Platform | PHP | Server | hiredis | Symfony | Laravel | PHPUnit | Result |"
    echo "|---|---|---|---|---|---|---|---|"
    while IFS='|' read -r name php server hiredis symfony laravel phpunit result; do
        [[ -n $name ]] || continue
        # a row without a framework suite shows a dash there
        if [[ $name == *-valkey || $name == sid-php86 || $name == zts ]]; then
            symfony=- laravel=- phpunit=-
        fi
        [[ $name == sid-symfony81 ]] && { laravel=-; server=${server:+$server}; }
        echo "| $(describe "$name") | ${php:--} | ${server:--} | ${hiredis:--} | ${symfony:--} | ${laravel:--} | ${phpunit:--} | ${result:--} |"
    done <"$rows"
    if [[ -n ${3:-} ]]; then
        echo
        echo "$3"
    fi
)
echo "$table"

if [[ ${2:-} == --write ]]; then
    begin='<!-- platforms: made by scripts/platform/readme-table.sh from a run of scripts/test-all.sh -->'
    end='<!-- /platforms -->'
    grep -qF "$begin" "$readme" || { echo "readme-table: no '$begin' marker in README.md" >&2; exit 1; }
    TABLE="$table" BEGIN="$begin" END="$end" awk '
        $0 == ENVIRON["BEGIN"] { print; print ENVIRON["TABLE"]; skip = 1; next }
        $0 == ENVIRON["END"] { skip = 0 }
        !skip { print }' "$readme" >"$readme.new"
    mv "$readme.new" "$readme"
    echo "readme-table: README.md updated"
fi
