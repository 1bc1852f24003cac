--TEST--
new RedisLock($redis): a phpredis \Redis with AUTH and select(2) gives its endpoint, password and database; options that contradict the connection are refused; a tcp:// host is plain TCP, a socket path a socket whatever its scheme, another transport refused
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
rl_skip_unless_redis_binary();
?>
--EXTENSIONS--
redislock
redis
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';

$pw = 'T033-Pa55word';
$srv = new RlTestServer(['--requirepass', $pw, '--user', 't033user', 'on', '>T033-User-pw', '~*', '&*', '+@all'],
                        withUnixSocket: true);
$db2 = $srv->client($pw);
var_dump($db2->cmd('SELECT', 2));
$db0 = $srv->client($pw);

$redis = new Redis();
$redis->connect('127.0.0.1', $srv->port());
$redis->auth($pw);
$redis->select(2);

$lock = new RedisLock($redis);
$t = $lock->lock('t033', 30000);
var_dump(is_string($t));
var_dump($db2->get('lock:t033') === $t);
var_dump($db0->exists('lock:t033'));
var_dump($redis->get('lock:t033') === $t);   // phpredis sees it in its db 2

echo "acquireLock/releaseLock:\n";
var_dump($lock->acquireLock('t033b', 5));
var_dump($db2->exists('lock:t033b'));
var_dump($lock->releaseLock('t033b'));
var_dump($lock->unlock('t033', $t));
var_dump($db2->exists('lock:t033', 'lock:t033b'));

echo "phpredis still works, on db 2:\n";
var_dump($redis->ping());
var_dump($redis->getDbNum());

echo "with options:\n";
$prefixed = new RedisLock($redis, ['prefix' => 't033:']);
$t = $prefixed->lock('res', 30000);
var_dump($db2->get('t033:res') === $t, $prefixed->unlock('res', $t));

echo "an ACL user, [user, pass]:\n";
$acl = new Redis();
$acl->connect('127.0.0.1', $srv->port());
$acl->auth(['t033user', 'T033-User-pw']);
$acl->select(4);
$l = new RedisLock($acl);
$t = $l->lock('t033', 30000);
var_dump($db0->cmd('SELECT', 4), $db0->get('lock:t033') === $t);
$users = array_column(array_filter($db0->clientList(), fn($c) => $c['db'] === '4' && $c['cmd'] !== 'client|list'), 'user');
sort($users);
var_dump($users);   // phpredis and the extension, both as t033user
var_dump($l->unlock('t033', $t));

echo "over the unix socket:\n";
$unix = new Redis();
$unix->connect($srv->unixSocket());
$unix->auth($pw);
$unix->select(2);
$l = new RedisLock($unix);
$t = $l->lock('t033u', 30000);
var_dump($db2->get('lock:t033u') === $t);
var_dump(count(array_filter($db2->clientList(), fn($c) => str_contains($c['flags'], 'U'))));
var_dump($l->unlock('t033u', $t));

echo "a subclass of Redis:\n";
class MyRedis extends Redis {}
$mine = new MyRedis();
$mine->connect('127.0.0.1', $srv->port());
$mine->auth($pw);
$mine->select(2);
$l = new RedisLock($mine);
var_dump($l->acquireLock('t033s', 5), $db2->exists('lock:t033s'), $l->releaseLock('t033s'));

echo "options that say what the connection says, or not:\n";
foreach ([['database' => 2, 'password' => $pw], ['database' => 0], ['password' => 'other'], ['prefix' => 't033o:']] as $o) {
    try {
        $l = new RedisLock($redis, $o);
        echo "taken: ", $l->unlock('t033o', $l->lock('t033o', 5000)) ? 'yes' : 'no', "\n";
    } catch (ValueError $e) {
        echo str_replace($pw, '***', $e->getMessage()), "\n";
    }
}
try {
    new RedisLock($acl, ['username' => 'other', 'password' => 'T033-User-pw']);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}

echo "the transport in the host:\n";
class HostSays extends Redis {
    public function __construct(private string $h, private int $p, private mixed $a = null) {}
    public function getHost(): string { return $this->h; }
    public function getPort(): int { return $this->p; }
    public function getDbNum(): int { return 2; }
    public function getAuth(): mixed { return $this->a; }
}
$tcp = new RedisLock(new HostSays('tcp://127.0.0.1', $srv->port(), $pw));
var_dump($tcp->unlock('t033t', $tcp->lock('t033t', 5000)));
// a socket whatever the scheme before it (phpredis reads it so): unix://, and tls:// too
foreach (['unix://', 'tls://'] as $scheme) {
    $l = new RedisLock(new HostSays($scheme . $srv->unixSocket(), 0, $pw));
    $t = $l->lock('t033x', 5000);
    var_dump($db2->get('lock:t033x') === $t, $l->unlock('t033x', $t));
}
foreach (['udp://127.0.0.1', 'unix://127.0.0.1', 'tls://'] as $h) {
    try {
        new RedisLock(new HostSays($h, 6379));
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
string(2) "OK"
bool(true)
bool(true)
int(0)
bool(true)
acquireLock/releaseLock:
bool(true)
int(1)
bool(true)
bool(true)
int(0)
phpredis still works, on db 2:
bool(true)
int(2)
with options:
bool(true)
bool(true)
an ACL user, [user, pass]:
string(2) "OK"
bool(true)
array(2) {
  [0]=>
  string(8) "t033user"
  [1]=>
  string(8) "t033user"
}
bool(true)
over the unix socket:
bool(true)
int(2)
bool(true)
a subclass of Redis:
bool(true)
int(1)
bool(true)
options that say what the connection says, or not:
taken: yes
RedisLock::__construct(): Argument #1 ($server) sets a database on its connection, and Argument #2 ($options) sets another in option "database": give it once
RedisLock::__construct(): Argument #1 ($server) sets a password on its connection, and Argument #2 ($options) sets another in option "password": give it once
taken: yes
RedisLock::__construct(): Argument #1 ($server) sets a user name on its connection, and Argument #2 ($options) sets another in option "username": give it once
the transport in the host:
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
RedisLock::__construct(): Argument #1 ($server) is a Redis object connected over a transport other than tcp://, tls:// or a unix socket
RedisLock::__construct(): Argument #1 ($server) must be a connected Redis object
RedisLock::__construct(): Argument #1 ($server) must be a connected Redis object
