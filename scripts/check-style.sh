#!/usr/bin/env bash
# The code's style: clang-format (.clang-format) on the C of src/ and ext/,
# PSR-12 (bridge/phpcs.xml.dist, phpcs) on the PHP of bridge/.
#
#   scripts/check-style.sh
#
# C: any line clang-format would change fails the check (the tree was
# formatted once, with .clang-format; clang-format --dry-run -Werror names
# the places; `clang-format -i FILE` mends them). PHP: PSR-12's rules fail the check;
# lines over its soft limit of 120 characters are warnings, counted, and
# fail only with REDISLOCK_STYLE_STRICT=1. Run by scripts/test-all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
strict=${REDISLOCK_STYLE_STRICT:-0}
status=0

# --- C ---------------------------------------------------------------------
clang_format=${CLANG_FORMAT:-clang-format}
command -v "$clang_format" >/dev/null || { echo "check-style: $clang_format not found (run scripts/deps.sh)" >&2; exit 1; }
# src/lock/rl_scripts_lua.h and rl_scripts_enum.h are written by scripts/gen-lua.php
mapfile -t c_files < <(git ls-files 'src/*.[ch]' 'ext/*.[ch]' | grep -v '^src/lock/rl_scripts_\(lua\|enum\)\.h$')
bad_files=0 bad_lines=0
for f in "${c_files[@]}"; do
    n=$("$clang_format" --style=file "$f" | diff -- "$f" - | grep -c '^<' || true)
    if ((n)); then
        bad_files=$((bad_files + 1)) bad_lines=$((bad_lines + n))
        if ((bad_files <= 10)); then   # the first places of the first files
            "$clang_format" --style=file --dry-run -Werror "$f" 2>&1 | head -n 6 >&2 || true
        fi
    fi
done
echo "check-style: C: $bad_files of ${#c_files[@]} files, $bad_lines lines would change ($("$clang_format" --version | sed 's/.*version \([0-9.]*\).*/clang-format \1/'))"
if ((bad_files)); then
    echo "check-style: C: not formatted as .clang-format says (above; clang-format -i FILE mends it)" >&2
    status=1
fi

# --- PHP: bridge/ --------------------------------------------------------------
command -v phpcs >/dev/null || { echo "check-style: phpcs not found (run scripts/deps.sh)" >&2; exit 1; }
phpcs_args=(--standard=phpcs.xml.dist --report=emacs)
((strict)) || phpcs_args+=(--warning-severity=0)
# bin/redislock has no .php name, which phpcs would skip: given on stdin
if ! (cd bridge && phpcs "${phpcs_args[@]}" && phpcs "${phpcs_args[@]}" --exclude=PSR1.Files.SideEffects \
        --stdin-path=bin/redislock.php - <bin/redislock); then
    echo "check-style: bridge/: not PSR-12 (above; phpcbf fixes most: cd bridge && phpcbf)" >&2
    status=1
fi
long=$(cd bridge && { phpcs --standard=phpcs.xml.dist --report=emacs --sniffs=Generic.Files.LineLength || true
    phpcs --standard=phpcs.xml.dist --report=emacs --sniffs=Generic.Files.LineLength --stdin-path=bin/redislock.php - <bin/redislock || true
    } | grep -c ': warning - ' || true)
echo "check-style: bridge/: $long lines over 120 characters (PSR-12's soft limit: warnings)"
exit "$status"
