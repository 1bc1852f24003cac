<?php
/*
 * The request php-fpm serves in the FPM benchmark: take a lock, release it,
 * answer "ok". ?impl= says how (none: the FPM floor, no lock), ?server= which
 * node (HOST:PORT). Each worker locks a resource of its own: this measures
 * what locking costs a request, not contention. The -tls modes talk TLS to
 * ?server= (the TLS port) and verify it against the CA file ?cafile=.
 */
const RELEASE_LUA = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

$impl = $_GET['impl'] ?? 'none';
$server = $_GET['server'] ?? '127.0.0.1:6379';
$resource = 'bench-fpm-' . getmypid();
$cafile = $_GET['cafile'] ?? '';
$ok = true;

switch ($impl) {
    case 'ext':     // the default: the worker's pooled connection, kept across requests
    case 'ext-own': // a connection of this object's own, closed with it at request end
        $lock = new RedisLock($server, $impl === 'ext' ? [] : ['persistent' => false]);
        $token = $lock->lock($resource, 5000);
        $ok = $token !== null && $lock->unlock($resource, $token);
        break;
    case 'ext-tls':     // TLS, the pooled connection: one handshake per worker
    case 'ext-tls-own': // TLS, a connection per object: a handshake per request
        $options = ['tls' => ['cafile' => $cafile]];
        $lock = new RedisLock("tls://$server", $impl === 'ext-tls' ? $options : $options + ['persistent' => false]);
        $token = $lock->lock($resource, 5000);
        $ok = $token !== null && $lock->unlock($resource, $token);
        break;
    case 'pconnect-tls': // userland phpredis over TLS (stream context: verify against the CA)
    case 'connect-tls':
        [$host, $port] = explode(':', $server);
        $r = new Redis();
        $context = ['stream' => ['verify_peer' => true, 'verify_peer_name' => true, 'cafile' => $cafile]];
        $impl === 'pconnect-tls'
            ? $r->pconnect("tls://$host", (int)$port, 1.0, null, 0, 0, $context)
            : $r->connect("tls://$host", (int)$port, 1.0, null, 0, 0, $context);
        $token = bin2hex(random_bytes(16));
        $ok = $r->set("lock:$resource", $token, ['nx', 'px' => 5000])
            && $r->eval(RELEASE_LUA, ["lock:$resource", $token], 1) === 1;
        if ($impl === 'connect-tls') {
            $r->close();
        }
        break;
    case 'pconnect': // userland phpredis, as in the seeds
    case 'connect':
        [$host, $port] = explode(':', $server);
        $r = new Redis();
        $impl === 'pconnect' ? $r->pconnect($host, (int)$port, 1.0) : $r->connect($host, (int)$port, 1.0);
        $token = bin2hex(random_bytes(16));
        $ok = $r->set("lock:$resource", $token, ['nx', 'px' => 5000])
            && $r->eval(RELEASE_LUA, ["lock:$resource", $token], 1) === 1;
        if ($impl === 'connect') {
            $r->close();
        }
        break;
}
echo $ok ? 'ok' : 'failed';
