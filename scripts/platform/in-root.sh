#!/usr/bin/env bash
# Runs a command inside a platform's root (scripts/platform/root.sh):
#
#   scripts/platform/in-root.sh NAME CMD [ARG ...]
#
# in a mount namespace of its own, so that the /proc, /dev and /dev/shm it
# mounts there are gone with the command, whatever happens to it. The network
# is the host's: servers started inside listen on the host's loopback.
# $REDISLOCK_BIND=DIR bind-mounts DIR at the same path inside.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=platforms.sh
. "$here/platforms.sh"

name=${1:?usage: in-root.sh NAME CMD [ARG ...]}
shift
dir=$(root_dir "$name")
[[ -x $dir/bin/sh ]] || { echo "in-root: no root at $dir (scripts/platform/root.sh $name)" >&2; exit 1; }

exec unshare --mount --propagation private -- /bin/sh -c '
    set -e
    dir=$1; shift
    mount -t proc proc "$dir/proc"
    mount --rbind /dev "$dir/dev"
    mkdir -p "$dir/dev/shm" && mount -t tmpfs tmpfs "$dir/dev/shm"
    mount -t tmpfs tmpfs "$dir/tmp"
    if [ -n "${REDISLOCK_BIND:-}" ]; then
        mkdir -p "$dir$REDISLOCK_BIND" && mount --bind "$REDISLOCK_BIND" "$dir$REDISLOCK_BIND"
    fi
    exec chroot "$dir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb CI="${CI:-}" "$@"
' sh "$dir" "$@"
