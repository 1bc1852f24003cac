#!/usr/bin/env bash
# Every phpt test under tests/ is named NNN-words.phpt, and no number is
# used twice anywhere in tests/ (a test is known by its number alone:
# "test 501", tests/*/501-*.phpt). Prints each offence; exits 1 then.
# Run by scripts/test-all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# git's list, so that a run's leftovers (NNN-*.php, .out) never count
mapfile -t files < <(git ls-files 'tests/*.phpt' | sort)
for f in "${files[@]}"; do
    [[ ${f##*/} =~ ^[0-9]{3}-[a-z0-9]+(-[a-z0-9]+)*\.phpt$ ]] \
        || { echo "check-test-names: $f: not named NNN-words.phpt (lower case, digits, dashes)" >&2; status=1; }
done
dups=$(printf '%s\n' "${files[@]}" | sed -n 's|.*/\([0-9][0-9][0-9]\)-[^/]*$|\1|p' | sort | uniq -d)
for n in $dups; do
    echo "check-test-names: number $n used by more than one test:" $(printf '%s\n' "${files[@]}" | grep "/$n-") >&2
    status=1
done
((status)) || echo "check-test-names: ${#files[@]} tests, every number once"
exit "$status"
