#!/usr/bin/env bash
# Mutation testing: does the safety suite (and do the phpt tests) catch a
# deliberate bug? Each mutant in scripts/mutants/ (NN-name.mut, the form in
# scripts/mutant-apply.php) is one bug. For each: the tracked tree is copied
# (git ls-files) into a temp dir, the mutant applied there (the lock scripts'
# header regenerated when it changes a .lua), built (scripts/build.sh), and
#   - the safety check run against that build: killed when its table has a
#     row broken in a way the unmutated tree's run (00-none, first) did not
#     break it (a check without that table: when it exits non-zero);
#   - the phpt tests its "# phpt:" line names run there: killed by those that fail.
# A mutant that does not apply or does not build is reported so, never as
# killed. This checkout is never modified but for the results:
# bench/results/mutants.tsv (one line per mutant and column, kept across
# runs: --only updates those rows) and the table made of it,
# bench/results/mutants.md.
#
#   scripts/mutants.sh [--only NAME,...] [--check CMD] [--no-safety] [--no-phpt] [--logs DIR]
#                      [--base LOG]... [--rejudge DIR] [--skip-none]
#
#   --only     mutants by name (01-release-any-token) or number (01)
#   --check    the safety check, run in the mutant's tree; {so} is the
#              mutant build's redislock.so (default: scripts/safety-quick.sh --mutants {so})
#   --no-safety, --no-phpt   leave that column as it was
#   --logs DIR keep each mutant's build and check output there
#   --base LOG a kept safety log of the unmutated tree (00-none.safety.log of
#              an earlier run): its broken rows count as that tree's too (the
#              safety runs are not deterministic: what breaks differs by run)
#   --skip-none  the unmutated tree is not run here: its broken rows are the
#              --base logs' (another run's 00-none, e.g. one running beside
#              this one on other mutants; --rejudge redoes the verdicts)
#   --rejudge DIR  build and run nothing: the safety verdicts again from the
#              logs --logs kept in DIR (its 00-none and the --base logs as the
#              unmutated tree's), each under the commit it was recorded with
# Environment: REDISLOCK_TEST_PORT_BASE is passed on; MUTANT_SAFETY_TIMEOUT
# (s, default 900) and MUTANT_PHPT_TIMEOUT (s, default 900) bound each run
# (a run cut short is "timed out", not killed).
# Exit status: 1 when a mutant survived a check that ran, did not apply or
# did not build; 0 otherwise. Runs for many minutes: the long schedule's, not CI's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"

only="" check='scripts/safety-quick.sh --mutants {so}' safety=1 phpt=1 logs="" rejudge=""
bases=()
skip_none=0
while (($#)); do
    case $1 in
        --only) only=$2; shift 2 ;;
        --check) check=$2; shift 2 ;;
        --no-safety) safety=0; shift ;;
        --no-phpt) phpt=0; shift ;;
        --logs) logs=$(mkdir -p "$2" && cd "$2" && pwd); shift 2 ;;
        --base) bases+=("$(realpath -- "$2")"); shift 2 ;;
        --rejudge) rejudge=$(realpath -- "$2"); shift 2 ;;
        --skip-none) skip_none=1; shift ;;
        -h|--help) sed -n '2,38p' "$0"; exit 0 ;;
        *) echo "mutants: unknown argument $1 (--help)" >&2; exit 2 ;;
    esac
done
safety_timeout=${MUTANT_SAFETY_TIMEOUT:-900}
phpt_timeout=${MUTANT_PHPT_TIMEOUT:-900}
tsv=bench/results/mutants.tsv
md=bench/results/mutants.md
commit=$(git rev-parse --short HEAD)
[[ -z $(git status --porcelain -- src ext scripts tests) ]] || commit="$commit+dirty"  # changed or new files there

work=$(mktemp -d "${TMPDIR:-/tmp}/redislock-mutants.XXXXXX")
trap 'rm -rf "$work"' EXIT

wanted() { # NAME: on the --only list (or no list)
    [[ -z $only ]] && return 0
    local w
    for w in ${only//,/ }; do
        [[ $1 == "$w" || ${1%%-*} == "$w" ]] && return 0
    done
    return 1
}

# A record: name, column (safety|phpt), result, commit; the last one of a
# name and column wins.
record() {
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "${3//$'\t'/ }" "$commit" >>"$tsv"
}

keep_log() { # NAME WHAT FILE
    [[ -n $logs ]] && cp "$3" "$logs/$1.$2.log"
    return 0
}

# What failed, from run-tests' "FAIL title [path]" lines: test numbers.
phpt_killers() {
    sed $'s/\x1b\[[0-9;]*m//g' "$1" | grep -aoE '^(FAIL|LEAK|BORK).*\[[^]]*/([0-9]+)-[^]/]*\.phpt\]' \
        | sed -E 's/.*\/([0-9]+)-[^/]*\.phpt\]$/\1/' | sort -u | paste -sd, - || true
}

# The safety table's broken rows, one line per reason its verdict gives:
# "fault mode ae=on|off: reason", the reason's numbers and seeds left out
# (so a mutant's are compared with the unmutated tree's by kind).
broken_rows() {
    sed $'s/\x1b\[[0-9;]*m//g' "$1" | awk -F'|' '/^\|/ && $NF ~ /^ *$/ && $(NF-1) ~ /BROKEN/ {
        v = $(NF-1); sub(/^ *BROKEN: */, "", v); sub(/ +$/, "", v)
        gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3); gsub(/^ +| +$/, "", $4)
        k = split(v, why, /; seed /)
        for (i = 1; i <= k; i++) {
            w = why[i]; sub(/^(seed )?[0-9]+: */, "", w); gsub(/[0-9]+/, "N", w)
            print $2 " " $3 " ae=" $4 ": " w
        }
    }' | sort -u
}

# A safety run's verdict (rc, log): killed when it broke a row in a way the
# unmutated tree's run did not ($work/base.broken); the new ways, three at most.
safety_verdict() {
    local rc=$1 log=$2 new n
    if ((rc == 124)); then
        echo "timed out (${safety_timeout} s)"; return
    fi
    if ((rc == 0)); then
        echo "survived"; return
    fi
    broken_rows "$log" >"$work/mutant.broken"
    if [[ ! -s $work/mutant.broken ]]; then # not the safety table: its exit status alone, its last line
        echo "killed: $(sed $'s/\x1b\[[0-9;]*m//g' "$log" | grep -av '^[[:space:]]*$' | tail -1 | cut -c1-160)"; return
    fi
    new=$(comm -13 "$work/base.broken" "$work/mutant.broken")
    if [[ -z $new ]]; then
        echo "survived (broke only what the unmutated tree broke)"; return
    fi
    n=$(wc -l <<<"$new")
    # a reason the unmutated tree gave too (on another row): the checker's
    # noise, or the mutant's; the table says so
    if [[ -z $(comm -13 <(sed 's/^[^:]*: //' "$work/base.broken" | sort -u) <(sed 's/^[^:]*: //' <<<"$new" | sort -u)) ]]; then
        echo "killed? (only in ways the unmutated tree broke other rows): $(head -3 <<<"$new" | cut -c1-150 | paste -sd';' -)"
        return
    fi
    echo "killed: $(head -3 <<<"$new" | cut -c1-150 | paste -sd';' -)$( ((n > 3)) && echo " (and $((n - 3)) more)")"
}

status=0
mkdir -p bench/results
touch "$tsv"
# the unmutated tree's broken rows from earlier runs (--base), and below from this one
base_rows() { # [LOG]: rebuilds $work/base.broken from LOG and the --base logs
    local b
    for b in "$@" "${bases[@]}"; do broken_rows "$b"; done | sort -u >"$work/base.broken"
}
base_rows

if [[ -n $rejudge ]]; then
    [[ -f $rejudge/00-none.safety.log ]] || { echo "mutants: no 00-none.safety.log in $rejudge" >&2; exit 2; }
    base_rows "$rejudge/00-none.safety.log"
    for file in scripts/mutants/*.mut; do
        name=$(basename "$file" .mut)
        log=$rejudge/$name.safety.log
        wanted "$name" && [[ -f $log ]] || continue
        # its exit status, from the summary line: "...: N rows broken"
        n=$(sed -n 's/.*: \([0-9][0-9]*\) rows broken$/\1/p' "$log" | tail -1)
        [[ -n $n ]] || { echo "mutants: $name: no summary line in its log (cut short?): left as it was" >&2; continue; }
        result=$(safety_verdict "$(( n > 0 ))" "$log")
        [[ $result == killed* ]] || status=1
        was=$commit
        commit=$(awk -F'\t' -v n="$name" '$1 == n && $2 == "safety" { c = $4 } END { print c }' "$tsv")
        record "$name" safety "$result"
        commit=${was}
        echo "$name: $result"
    done
    commit=$(awk -F'\t' '$1 == "00-none" && $2 == "safety" { c = $4 } END { print c }' "$tsv")
    record 00-none safety "broken already, in $(( ${#bases[@]} + 1 )) runs: $(head -3 "$work/base.broken" | cut -c1-150 | paste -sd';' -)$(n=$(wc -l <"$work/base.broken"); ((n > 3)) && echo " (and $((n - 3)) more)")"
    safety=0 phpt=0 # the table below, nothing run
fi
# With the safety check, the unmutated tree first ("00-none"): what it
# breaks already does not kill a mutant.
list=(scripts/mutants/*.mut)
((safety && !skip_none)) && list=(none "${list[@]}")
[[ -z $rejudge ]] || list=()
for file in "${list[@]}"; do
    if [[ $file == none ]]; then
        name=00-none
    else
        name=$(basename "$file" .mut)
        wanted "$name" || continue
    fi
    tree=$work/$name
    log=$work/$name.log
    mkdir -p "$tree"
    git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$tree"
    echo "== $name"
    if [[ $file == none ]]; then
        changed=""
    elif ! changed=$(php scripts/mutant-apply.php "$file" "$tree" 2>"$log"); then
        cat "$log" >&2
        ((safety)) && record "$name" safety "does not apply"
        ((phpt)) && record "$name" phpt "does not apply"
        status=1; rm -rf "$tree"; continue
    fi
    if grep -q '\.lua$' <<<"$changed"; then
        cp "$tree/src/lock/rl_scripts_lua.h" "$work/lua.h"
        (cd "$tree" && php scripts/gen-lua.php) >>"$log" 2>&1 || true
        if cmp -s "$tree/src/lock/rl_scripts_lua.h" "$work/lua.h"; then
            echo "mutants: $name: the lock scripts' header did not change" >&2
            cat "$log" >&2
            ((safety)) && record "$name" safety "does not apply (gen-lua)"
            ((phpt)) && record "$name" phpt "does not apply (gen-lua)"
            status=1; rm -rf "$tree"; continue
        fi
    fi
    if ! (cd "$tree" && ./scripts/build.sh) >>"$log" 2>&1; then
        keep_log "$name" build "$log"
        echo "   build failed" >&2
        ((safety)) && record "$name" safety "build failed"
        ((phpt)) && record "$name" phpt "build failed"
        status=1; rm -rf "$tree"; continue
    fi
    keep_log "$name" build "$log"
    so=$tree/modules/redislock.so

    if ((safety)); then
        cmd=${check//\{so\}/$so}
        first=${cmd%% *}
        if [[ $first == */* && ! -e $tree/$first && ! -e $first ]]; then
            result="not run ($first missing)"
        else
            rc=0
            (cd "$tree" && timeout "$safety_timeout" bash -c "$cmd") >"$work/safety.log" 2>&1 || rc=$?
            keep_log "$name" safety "$work/safety.log"
            if [[ $name != 00-none ]]; then
                result=$(safety_verdict "$rc" "$work/safety.log")
                [[ $result == killed* ]] || status=1
            elif ((rc == 0)); then
                result="holds"
            elif base_rows "$work/safety.log" && [[ -s $work/base.broken ]]; then
                result="broken already: $(head -3 "$work/base.broken" | cut -c1-150 | paste -sd';' -)"
            else
                echo "mutants: the safety check fails on the unmutated tree (exit $rc), not in its table:" >&2
                tail -5 "$work/safety.log" >&2
                exit 1
            fi
        fi
        echo "   safety: $result"
        record "$name" safety "$result"
    fi

    if ((phpt)) && [[ $name != 00-none ]]; then
        targets=()
        for t in $(sed -n 's/^# phpt: //p' "$file"); do
            for p in "$tree"/$t; do
                [[ -e $p ]] && targets+=("$p")
            done
        done
        if ((${#targets[@]} == 0)); then
            result="no test named exists"; status=1
        else
            rc=0
            (cd "$tree" && REDISLOCK_BRIDGES= timeout "$phpt_timeout" tests/run-suite.sh --no-valgrind "${targets[@]}") \
                >"$work/phpt.log" 2>&1 || rc=$?
            keep_log "$name" phpt "$work/phpt.log"
            killers=$(phpt_killers "$work/phpt.log")
            if ((rc == 124)); then
                result="timed out (${phpt_timeout} s)${killers:+, failed before: $killers}"
            elif [[ -n $killers ]]; then
                result="killed: $killers"
            elif ((rc != 0)); then
                result="run failed: $(grep -av '^[[:space:]]*$' "$work/phpt.log" | tail -1 | cut -c1-120)"
                status=1
            else
                result="survived"; status=1
            fi
        fi
        echo "   phpt: $result"
        record "$name" phpt "$result"
    fi
    rm -rf "$tree"
done

# Only the latest result of each mutant and column is kept.
awk -F'\t' '{ k = $1 FS $2; if (!(k in last)) order[++n] = k; last[k] = $0 } END { for (i = 1; i <= n; i++) print last[order[i]] }' \
    "$tsv" | sort -t$'\t' -k1,1 -k2,2 >"$work/tsv" && cp "$work/tsv" "$tsv"

# The table: every mutant of the folder, its latest result in each column.
{
    echo "# Mutants: what kills them"
    echo
    echo "Made by \`scripts/mutants.sh\` from bench/results/mutants.tsv: each mutant (scripts/mutants/)"
    echo "applied alone to a copy of the tree, built, then checked. \"killed by safety\": the safety check"
    echo "(\`scripts/safety-quick.sh --mutants\` unless said: the Sentinel and Cluster rows, then every"
    echo "independent-node row with and without fencing and auto_extend, up to the first broken one)"
    echo "broke a row (fault, mode, auto_extend: why) in a way"
    echo "the unmutated tree (00-none, run first) did not; numbers are left out of the reasons (N);"
    echo "\"killed by phpt\": the numbers of the tests (of those its file names) that failed. In brackets:"
    echo "the commit of the tree the mutant was applied to."
    echo
    echo "| mutant | what it breaks | killed by safety (row) | killed by phpt (test) |"
    echo "|---|---|---|---|"
    for file in none scripts/mutants/*.mut; do
        if [[ $file == none ]]; then
            name=00-none
            grep -q "^00-none" "$tsv" || continue
            breaks="nothing: the tree as it is (what its run breaks kills no mutant)"
        else
            name=$(basename "$file" .mut)
            breaks=$(sed -n 's/^# breaks: //p' "$file")
        fi
        cell() {
            awk -F'\t' -v n="$name" -v c="$1" '$1 == n && $2 == c { r = $3 " (" $4 ")" } END { print r ? r : "not run" }' "$tsv" \
                | sed 's/|/\\|/g'
        }
        # a mutant's "# safety-note:" line: what a reader of its safety cell must know
        note=$([[ -f $file ]] && sed -n 's/^# safety-note: //p' "$file" || true)
        echo "| $name | ${breaks//|/\\|} | $(cell safety)${note:+ (note: ${note//|/\\|})} | $(cell phpt) |"
    done
} >"$md"
echo "mutants: table in $md"
exit $status
