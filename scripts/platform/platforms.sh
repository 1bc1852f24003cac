# The platforms of the test matrix: which Debian suite each root is made
# from, and what is installed in it. Sourced by root.sh, in-root.sh and
# matrix.sh.
#
#   trixie  Debian 13: PHP 8.4, hiredis 1.2, Redis 8.0, Valkey 8.1,
#           Symfony 6.4, Laravel 10, PHPUnit 11
#   sid     Debian unstable with experimental: PHP 8.5 and 8.6-dev (from
#           experimental), hiredis 1.2, Redis 8.6 (experimental), Valkey 9.1,
#           Symfony 7.4 (and 8.1 from experimental, unpacked beside it),
#           Predis (Symfony's own RedisStore in the bridges' rolling-switch test:
#           no phpredis for PHP 8.5),
#           Laravel 13, PHPUnit 13

PLATFORM_ROOTS=(trixie sid)

platform_known() {
    local r
    for r in "${PLATFORM_ROOTS[@]}"; do [[ $r == "$1" ]] && return 0; done
    return 1
}

root_dir() { echo "${REDISLOCK_ROOTS:-/var/cache/redislock/roots}/$1"; }

root_suite() {
    case $1 in
        trixie) echo trixie ;;
        sid) echo sid ;;
    esac
}

root_sources() {   # root_sources NAME MIRROR: its sources.list
    case $1 in
        trixie) echo "deb $2 trixie main" ;;
        sid) printf 'deb %s sid main\ndeb %s experimental main\n' "$2" "$2" ;;
    esac
}

# What every root needs to build the extension and run the phpt suite.
common_packages=(make gcc libc6-dev pkg-config libhiredis-dev libssl-dev openssl
    libfcgi-bin procps phpunit
    php-symfony-lock php-symfony-semaphore php-symfony-cache
    php-illuminate-cache php-illuminate-container php-illuminate-config php-illuminate-redis)

root_packages() {
    case $1 in
        trixie)
            echo "${common_packages[*]}" php8.4-cli php8.4-dev php8.4-fpm php8.4-redis \
                redis-server redis-sentinel redis-tools valkey-server valkey-sentinel valkey-tools ;;
        sid)
            echo "${common_packages[*]}" php8.5-cli php8.5-dev php8.5-fpm php8.5-xml php8.5-mbstring php8.6-cli php8.6-dev php8.6-fpm \
                php-predis \
                redis-server/experimental redis-sentinel/experimental redis-tools/experimental \
                valkey-server valkey-sentinel valkey-tools ;;
    esac
}

# Symfony 8.1 is in experimental while sid has 7.4: its packages are unpacked
# into /opt/symfony-8.1 of the sid root (not installed), and the bridge suite
# runs a second time with that directory first on PHP's include path.
symfony_next_packages=(php-symfony-lock php-symfony-semaphore php-symfony-cache
    php-symfony-cache-contracts php-symfony-service-contracts php-symfony-deprecation-contracts
    php-symfony-var-exporter php-symfony-polyfill-php83 php-symfony-polyfill-php84
    php-psr-log php-psr-cache php-psr-container php-symfony-polyfill-deepclone)

root_after_sid() {   # root_after_sid DIR
    local dir=$1 here
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    rm -rf "$dir/opt/symfony-8.1"
    mkdir -p "$dir/opt/symfony-8.1"
    "$here/in-root.sh" sid sh -c '
        set -e
        mkdir -p /tmp/symfony-next && cd /tmp/symfony-next
        for p in "$@"; do apt-get -o APT::Sandbox::User=root download -qq "$p/experimental" 2>/dev/null || apt-get -o APT::Sandbox::User=root download -qq "$p"; done
        for deb in ./*.deb; do dpkg-deb -x "$deb" /opt/symfony-8.1; done
        ls /opt/symfony-8.1/usr/share/php/Symfony/Component/Lock/autoload.php >/dev/null' \
        sh "${symfony_next_packages[@]}"
}

# The stamp of a set-up root: changes when its package list does.
root_stamp() { echo "v1 $(root_suite "$1") $(root_packages "$1") ${symfony_next_packages[*]}"; }
