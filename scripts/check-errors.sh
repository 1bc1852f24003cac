#!/usr/bin/env bash
# docs/errors.md's table of codes against the one map in the core
# (src/base/rl_status.c: each status, its exception class): every status a
# call can throw has its row, with its class, and no row names another.
# Prints what differs; exits non-zero then. Run by scripts/test-all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/map.c" <<'C'
#include <stdio.h>
#include "rl_status.h"
int main(void)
{
    static const char *const names[] = {"RedisLockException", "RedisLockConnectionException",
                                        "RedisLockTimeoutException", "RedisLockDeadlockException",
                                        "RedisLockLostException"};
    for (int s = 1; s <= RL_STATUS_MAX; s++) {
        if (s != RL_E_SKIPPED) { /* a vote's state, never thrown */
            printf("%d %s\n", s, names[rl_status_class_of(s)]);
        }
    }
    return 0;
}
C
cc -std=c11 -I src/base -o "$work/map" "$work/map.c" src/base/rl_status.c
"$work/map" >"$work/code.txt"
# rows "| N | `Class` | ..." of the table
sed -n 's/^| \([0-9][0-9]*\) | `\([A-Za-z]*\)` | .*/\1 \2/p' docs/errors.md >"$work/doc.txt"
if ! diff -u --label 'the core (src/base/rl_status.c)' --label 'docs/errors.md' "$work/code.txt" "$work/doc.txt"; then
    echo "check-errors: docs/errors.md's codes and classes differ from the core's map (above)" >&2
    exit 1
fi
