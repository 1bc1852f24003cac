#!/usr/bin/env bash
# Install the build and test dependencies of redislock on Debian/Ubuntu.
# Idempotent: when everything is already installed, apt is not touched at all.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

pkgs=(php-dev php-cli libhiredis-dev redis-server redis-sentinel redis-tools php-redis valgrind
      pkg-config php-pear php-parser libfcgi-bin make gcc
      libssl-dev openssl
      clang libclang-rt-14-dev    # fuzz/run.sh: libFuzzer
      clang-format php-codesniffer   # scripts/check-style.sh: .clang-format on src/ and ext/, PSR-12 on bridge/
      composer                    # composer validate of the PIE metadata
      phpunit php-symfony-lock php-symfony-semaphore php-symfony-cache php-illuminate-cache   # bridge/ suites
      php-illuminate-container php-illuminate-config                        # ... the Laravel service provider
      php-illuminate-redis        # ... Laravel's own reading of a Redis connection, against the bridge's
      debootstrap                 # scripts/platform: the roots of the platform matrix
      xz-utils debian-archive-keyring)   # scripts/zts-php.sh: PHP's source package, fetched and checked by apt

# php-fpm for the PHP version actually installed (the meta package could pull a
# different one); on a fresh machine the meta package matches php-cli's.
if command -v php >/dev/null 2>&1; then
    phpver=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
    if dpkg-query -W "php$phpver-fpm" >/dev/null 2>&1 \
       || apt-cache show "php$phpver-fpm" >/dev/null 2>&1; then
        pkgs+=("php$phpver-fpm")
    else
        pkgs+=(php-fpm)
    fi
else
    pkgs+=(php-fpm)
fi

installed() { [[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) == ii* ]]; }

missing=()
for p in "${pkgs[@]}"; do
    installed "$p" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
    echo "deps: all ${#pkgs[@]} packages already installed"
    exit 0
fi

sudo=()
if ((EUID != 0)); then
    command -v sudo >/dev/null 2>&1 || { echo "deps: must run as root" >&2; exit 1; }
    sudo=(sudo -E)
fi

echo "deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
