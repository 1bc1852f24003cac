#!/usr/bin/env bash
# Print the prefix of a thread-safe (ZTS) PHP with the embed SAPI (libphp.so),
# the way FrankenPHP links PHP, and a CLI; build it from source the first time.
#
#   scripts/zts-php.sh            -> /var/cache/redislock/php-zts   (stdout: the prefix only)
#   REDISLOCK_ZTS_PREFIX=DIR scripts/zts-php.sh
#
# The prefix holds lib/libphp.so (the embed SAPI), bin/php (the CLI: the phpt
# suite runs on it, tests/zts/phpt.sh), bin/phpize, bin/php-config and the
# headers: what an extension and a host program build against. It is rebuilt
# only when its stamp file is missing or was written by another recipe (RECIPE
# below), so a second call costs nothing and needs no network. The CLI costs
# no second compile: libtool's PIC objects serve it and libphp.so alike (the
# whole build from scratch, fetch included, 4 to 5 minutes on 2 cores).
#
# Source: Debian's PHP source package, fetched with apt through a PRIVATE
# configuration (its own sources.list, lists and cache under a temporary
# directory), from the mirror the host's apt uses (scripts/debian-mirror.sh):
# the host's apt sources are only read. Packages are tried in
# order, the first one whose files the mirror serves wins:
#   php8.4 from trixie, php8.4 from trixie-security, php8.2 from bookworm.
# Only the upstream .orig tarball is built (no Debian patches). apt checks its
# hash against the Sources index, whose signature the host's
# debian-archive-keyring verifies (trixie's keys are in bookworm's keyring).
#
# Build: as FrankenPHP builds its libphp (--enable-zts --enable-embed
# --disable-zend-signals --enable-zend-max-execution-timers), with
# --disable-all plus what the phpt suite calls (posix, pcntl, sockets, ctype;
# json, pcre, hash and random are always in); nothing outside Debian 12's own
# -dev packages (scripts/deps.sh installs them). make -j2. Progress goes to stderr, the build
# log to $prefix.build.log.
set -euo pipefail

RECIPE=4   # bump when the configure line or the source choice changes
prefix=${REDISLOCK_ZTS_PREFIX:-/var/cache/redislock/php-zts}
stamp="$prefix/.redislock-zts-stamp"

log() { echo "zts-php: $*" >&2; }

if [[ -f $stamp && -x $prefix/bin/php-config && -f $prefix/lib/libphp.so && -x $prefix/bin/php ]] \
   && [[ $(sed -n 1p "$stamp") == "recipe $RECIPE" ]]; then
    echo "$prefix"
    exit 0
fi

for tool in apt-get apt-cache tar xz make gcc pkg-config; do   # release tarballs ship the parsers: no bison, re2c
    command -v "$tool" >/dev/null 2>&1 || { log "missing $tool (run scripts/deps.sh)"; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/redislock-zts-php.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

# --- fetch the source with a private apt configuration ----------------------
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[[ -f $keyring ]] || { log "no $keyring (apt-get install debian-archive-keyring)"; exit 1; }
apt_dir="$work/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/etc"
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/etc/sources.list"
          -o "Dir::Etc::SourceParts=/dev/null"
          -o "Dir::State::Lists=$apt_dir/lists"
          -o "Dir::Cache=$apt_dir/cache"
          -o "APT::Sandbox::User=root"
          -o "Acquire::Retries=2")

# the mirrors the host's apt uses (scripts/debian-mirror.sh; REDISLOCK_DEBIAN_MIRROR
# and REDISLOCK_DEBIAN_SECURITY_MIRROR override)
here=$(cd "$(dirname "$0")" && pwd)
mirror=$("$here/debian-mirror.sh" debian) || { log "no Debian mirror in the apt sources"; exit 1; }
candidates=("php8.4 trixie $mirror")
if security=$("$here/debian-mirror.sh" debian-security 2>/dev/null); then
    candidates+=("php8.4 trixie-security $security")
fi
candidates+=("php8.2 bookworm $mirror")
{
    for c in "${candidates[@]}"; do
        read -r _ suite uri <<<"$c"
        echo "deb-src [signed-by=$keyring] $uri $suite main"
    done
} | sort -u >"$apt_dir/etc/sources.list"
log "apt update (private lists in $apt_dir)"
apt-get "${apt_opts[@]}" -qq update >&2 || log "apt update reported errors; trying what it fetched"

src_dir="$work/dl"
orig=""
for pkg in $(printf '%s\n' "${candidates[@]}" | awk '!seen[$1]++ {print $1}'); do
    # every version the indexes list, newest first
    for ver in $(apt-cache "${apt_opts[@]}" showsrc "$pkg" 2>/dev/null | awk '/^Version:/ {print $2}' | sort -rV | uniq); do
        rm -rf "$src_dir"; mkdir -p "$src_dir"
        log "fetching $pkg $ver"
        if (cd "$src_dir" && apt-get "${apt_opts[@]}" -qq source --download-only "$pkg=$ver" >&2 2>"$work/apt.err"); then
            for f in "$src_dir"/"$pkg"_*.orig.tar.*; do
                [[ -f $f && $f != *.asc ]] && { orig=$f; break 3; }
            done
        fi
        log "$pkg $ver: not served by the mirror ($(grep -c 404 "$work/apt.err" || true) files missing); next"
    done
done
[[ -n $orig ]] || { log "no PHP source package could be fetched"; exit 1; }
log "source: $(basename "$orig")"

# --- build --------------------------------------------------------------------
mkdir -p "$work/build"
tar -xf "$orig" -C "$work/build"
srcroot=$(find "$work/build" -mindepth 1 -maxdepth 1 -type d | head -1)
[[ -f $srcroot/configure ]] || { log "no configure in $srcroot"; exit 1; }

rm -rf "$prefix"
mkdir -p "$(dirname "$prefix")"
buildlog="$prefix.build.log"
: >"$buildlog"
log "configure (log: $buildlog)"
(
    cd "$srcroot"
    CFLAGS="-O2 -g" ./configure --prefix="$prefix" \
        --enable-zts --enable-embed=shared \
        --disable-zend-signals --enable-zend-max-execution-timers \
        --disable-all --enable-cli --disable-cgi --disable-phpdbg \
        --enable-posix --enable-pcntl --enable-sockets --enable-ctype \
        --with-config-file-path="$prefix/etc" \
        --with-config-file-scan-dir="$prefix/etc/conf.d"
) >>"$buildlog" 2>&1 || { log "configure failed, see $buildlog"; tail -20 "$buildlog" >&2; exit 1; }
log "make -j2"
make -C "$srcroot" -j2 >>"$buildlog" 2>&1 || { log "make failed, see $buildlog"; tail -30 "$buildlog" >&2; exit 1; }
make -C "$srcroot" install >>"$buildlog" 2>&1 || { log "make install failed, see $buildlog"; tail -20 "$buildlog" >&2; exit 1; }
mkdir -p "$prefix/etc/conf.d"

grep -q '^#define ZTS 1' "$prefix/include/php/main/php_config.h" || { log "built PHP is not ZTS"; exit 1; }
[[ -f $prefix/lib/libphp.so ]] || { log "no libphp.so"; exit 1; }
"$prefix/bin/php" -n -r 'exit(PHP_ZTS && function_exists("pcntl_fork") ? 0 : 1);' || { log "bin/php is not a ZTS CLI with pcntl"; exit 1; }
php_ver=$("$prefix/bin/php-config" --version)
{
    echo "recipe $RECIPE"
    echo "source $(basename "$orig")"
    echo "php $php_ver zts embed cli"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(( $(date +%s) - start )) s"
} >"$stamp"
log "PHP $php_ver ZTS with embed and CLI in $prefix ($(( $(date +%s) - start )) s)"
echo "$prefix"
