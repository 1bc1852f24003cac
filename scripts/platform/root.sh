#!/usr/bin/env bash
# A Debian root of one platform of the test matrix, made and kept up to date.
#
#   scripts/platform/root.sh NAME            make or update the root, print its path
#   scripts/platform/root.sh NAME --path     only print where it is (or would be)
#
# The platforms (their suites and packages) are in scripts/platform/platforms.sh.
# Roots are cached under $REDISLOCK_ROOTS (default /var/cache/redislock/roots):
# a root whose package list has not changed since it was set up is used as it
# is, without asking the mirror anything; a missing or half-made one is made
# again with debootstrap. Needs root (debootstrap, chroot, mount).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=platforms.sh
. "$here/platforms.sh"

name=${1:?usage: root.sh NAME [--path]}
platform_known "$name" || { echo "root: no platform '$name' (known: ${PLATFORM_ROOTS[*]})" >&2; exit 2; }
dir=$(root_dir "$name")
[[ ${2:-} == --path ]] && { echo "$dir"; exit 0; }
((EUID == 0)) || { echo "root: must run as root (debootstrap, chroot)" >&2; exit 1; }

# one maker at a time per root (two matrix lanes may want the same one)
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9

log() { echo "root $name: $*" >&2; }
# the mirror the host's apt uses (REDISLOCK_DEBIAN_MIRROR overrides)
mirror=$("$here/../debian-mirror.sh" debian) || { log "no Debian mirror found in the host's apt sources"; exit 1; }
stamp=$dir/.redislock-packages
want=$(root_stamp "$name")

if [[ -f $stamp && $(<"$stamp") == "$want" ]]; then
    echo "$dir"
    exit 0
fi

if [[ ! -x $dir/usr/bin/apt-get || ! -f $dir/.redislock-bootstrapped ]]; then
    command -v debootstrap >/dev/null || apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    rm -rf "$dir"
    mkdir -p "$(dirname "$dir")"
    log "debootstrap $(root_suite "$name") (minbase)"
    blog=$(mktemp)
    if ! debootstrap --variant=minbase "$(root_suite "$name")" "$dir" "$mirror" >"$blog" 2>&1; then
        tail -n 20 "$blog" >&2
        rm -f "$blog"
        log "debootstrap failed (mirror unreachable?)"
        exit 1
    fi
    rm -f "$blog"
    touch "$dir/.redislock-bootstrapped"
fi

# What a chroot needs to resolve names and reach loopback by name.
printf '127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n' >"$dir/etc/hosts"
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
root_sources "$name" "$mirror" >"$dir/etc/apt/sources.list"
rm -f "$dir"/etc/apt/sources.list.d/*
# sid's and experimental's Release files may be expired in the mirror
echo 'Acquire::Check-Valid-Until "false";' >"$dir/etc/apt/apt.conf.d/99redislock"
printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >>"$dir/etc/apt/apt.conf.d/99redislock"

log "apt-get install ($(root_packages "$name" | wc -w) packages)"
alog=$(mktemp)
if ! "$here/in-root.sh" "$name" sh -c '
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq "$@" && apt-get clean' sh $(root_packages "$name") \
        >"$alog" 2>&1; then
    grep -v '^\(Selecting\|Preparing\|Unpacking\|Setting up\|Processing\)' "$alog" | tail -n 30 >&2
    rm -f "$alog"
    log "apt-get install failed"
    exit 1
fi
rm -f "$alog"
if declare -F "root_after_$name" >/dev/null; then
    "root_after_$name" "$dir"
fi
echo "$want" >"$stamp"
log "ready"
echo "$dir"
