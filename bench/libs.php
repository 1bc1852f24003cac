<?php
/*
 * Loads the peer libraries: a Composer install in bench/vendor if there is
 * one, else the distribution's packages found on the include_path (Debian:
 * php-predis, php-symfony-lock). A peer whose library is missing is left
 * out of the runs, with a note, rather than failing the whole benchmark.
 */
if (is_file(__DIR__ . '/vendor/autoload.php')) {
    require_once __DIR__ . '/vendor/autoload.php';
} else {
    foreach (['Predis/autoload.php', 'Symfony/Component/Lock/autoload.php'] as $file) {
        if (($path = stream_resolve_include_path($file)) !== false) {
            require_once $path;
        }
    }
}

define('BENCH_HAVE_PREDIS', class_exists(\Predis\Client::class));
define('BENCH_HAVE_SYMFONY', class_exists(\Symfony\Component\Lock\Store\RedisStore::class));
