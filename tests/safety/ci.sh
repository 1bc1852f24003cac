#!/usr/bin/env bash
# The safety suite's pass in CI (scripts/test-all.sh runs it beside the
# host's other passes): the phpt tests of the Sentinel and Cluster modes
# (tests/safety/901-913, through run-suite.sh with the environment given),
# then scripts/safety-quick.sh over the independent-node modes. Ends with
# one line "N passed, M failed": run-suite's counts, and one test for each
# row of the quick schedule (failed when BROKEN).
set -uo pipefail
cd "$(dirname "$0")/../.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
./tests/run-suite.sh --no-valgrind tests/safety/90[1-9]-safety-*.phpt tests/safety/91[0-9]-safety-*.phpt | tee "$log"
passed=0 failed=1
if [[ $(tail -n1 "$log") =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    passed=${BASH_REMATCH[1]} failed=${BASH_REMATCH[2]}
fi
echo "safety-quick: the independent-node modes, every fault, seed 7"
scripts/safety-quick.sh modules/redislock.so 7 | tee "$log"
held=$(grep -c '^| .* | holds' "$log")
broken=$(grep -c '^| .* | BROKEN: ' "$log")
grep -q '^[0-9]* rows, ' "$log" || broken=$((broken + 1))   # it stopped before its summary
echo "safety-quick: $held rows held, $broken broken"
echo "$((passed + held)) passed, $((failed + broken)) failed"
