#!/usr/bin/env bash
# A CPU load for the suite to pass beside (issue 31: a user's CI machine is
# often busy): N busy loops, each ended after SECONDS at most, in one process
# group that the caller ends by its pid (kill -- -PID).
#   scripts/cpu-load.sh N SECONDS &   (setsid: a group of its own)
set -euo pipefail
n=${1:?how many busy loops}
seconds=${2:?for how long at most}
for ((i = 0; i < n; i++)); do
    timeout --foreground "$seconds" sh -c 'while :; do :; done' &
done
wait
