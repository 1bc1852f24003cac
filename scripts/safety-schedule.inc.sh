# Sourced by scripts/safety-quick.sh and scripts/safety-topologies.sh: one
# seeded short schedule of the safety suite, the table on stdout.
#   safety_schedule NAME DEFAULT_SECONDS SCHEDULE_OPTION... -- PATH/TO/redislock.so [SEED] [SECONDS]
# runs tests/safety/schedule.php with the options, the seed and the length;
# exits 1 when any history breaks a guarantee its row promises
# (tests/safety/history.php says which), 2 on a usage error.
safety_schedule() {
    local name=$1 seconds=$2 opts=() ext seed runs status=0
    shift 2
    while [[ $1 != -- ]]; do opts+=("$1"); shift; done
    shift
    ext=${1:-}
    seed=${2:-7}
    seconds=${3:-$seconds}
    [[ -n $ext && -f $ext ]] || { echo "usage: scripts/$name.sh PATH/TO/redislock.so [SEED] [SECONDS]" >&2; exit 2; }
    [[ $seed =~ ^[0-9]+$ ]] || { echo "$name: SEED must be a number, not '$seed'" >&2; exit 2; }
    ext=$(cd "$(dirname "$ext")" && pwd)/$(basename "$ext")
    cd "$(dirname "${BASH_SOURCE[0]}")/.."
    export REDISLOCK_TEST_EXT=$ext
    runs=$(mktemp)
    trap 'rm -f "$runs"' EXIT
    php -d "extension=$ext" tests/safety/schedule.php --seeds="$seed" --seconds="$seconds" "${opts[@]}" 2>"$runs" || status=$?
    # what the runs said beside their counts (a worker's or the harness' error)
    grep -v '^{' "$runs" >&2 || true
    exit $status
}
