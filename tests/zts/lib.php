<?php
/* What the ZTS scenarios share: a raw RESP client (the ZTS PHP has no
 * phpredis), the host's variables, and a verdict line per check. Every
 * request reports "ok ..." or "FAIL ..." lines; run.sh counts them. */

final class Raw
{
    private $s;

    public function __construct(string $name = 'zts-check', ?int $port = null)
    {
        $port ??= (int)getenv('REDISLOCK_ZTS_PORT');
        $this->s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5.0);
        if ($this->s === false) {
            throw new RuntimeException("raw client: $errstr");
        }
        stream_set_timeout($this->s, 30);
        $this->cmd('CLIENT', 'SETNAME', $name); // told apart from the extension's connections
    }

    public function cmd(string ...$args)
    {
        $out = '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $out .= '$' . strlen($a) . "\r\n" . $a . "\r\n";
        }
        for ($done = 0; $done < strlen($out);) {
            $n = fwrite($this->s, substr($out, $done));
            if ($n === false || $n === 0) {
                throw new RuntimeException('raw client: write failed');
            }
            $done += $n;
        }
        return $this->read();
    }

    private function read()
    {
        $line = fgets($this->s);
        if ($line === false) {
            throw new RuntimeException('raw client: read failed');
        }
        $line = substr($line, 0, -2);
        $rest = substr($line, 1);
        switch ($line[0]) {
            case '+': return $rest;
            case '-': throw new RuntimeException("redis: $rest");
            case ':': return (int)$rest;
            case '$':
                if ((int)$rest < 0) {
                    return null;
                }
                $data = '';
                while (strlen($data) < (int)$rest + 2) {
                    $chunk = fread($this->s, (int)$rest + 2 - strlen($data));
                    if ($chunk === false || $chunk === '') {
                        throw new RuntimeException('raw client: read failed');
                    }
                    $data .= $chunk;
                }
                return substr($data, 0, -2);
            case '*':
                if ((int)$rest < 0) {
                    return null;
                }
                $a = [];
                for ($i = 0; $i < (int)$rest; $i++) {
                    $a[] = $this->read();
                }
                return $a;
        }
        throw new RuntimeException("raw client: unexpected reply $line");
    }

    /** Waits until $cond() is true, polling every 5 ms, at most $seconds. */
    public static function until(callable $cond, float $seconds): bool
    {
        $end = microtime(true) + $seconds;
        while (microtime(true) < $end) {
            if ($cond()) {
                return true;
            }
            usleep(5000);
        }
        return (bool)$cond();
    }

    /** The extension's connections as CLIENT LIST shows them (not ours, which are named). */
    public function extClients(?string $user = null): array
    {
        $rows = [];
        foreach (explode("\n", trim($this->cmd('CLIENT', 'LIST'))) as $line) {
            $f = [];
            foreach (explode(' ', trim($line)) as $kv) {
                [$k, $v] = array_pad(explode('=', $kv, 2), 2, '');
                $f[$k] = $v;
            }
            if (($f['name'] ?? '') !== '' || ($user !== null && ($f['user'] ?? '') !== $user)) {
                continue;
            }
            $rows[] = $f;
        }
        return $rows;
    }
}

function thread(): int { return (int)$_SERVER['HOST_THREAD']; }
function threads(): int { return (int)$_SERVER['HOST_THREADS']; }
function request(): int { return (int)$_SERVER['HOST_REQUEST']; }
function server(): string { return '127.0.0.1:' . getenv('REDISLOCK_ZTS_PORT'); }
/** RedLock's nodes: three throwaway servers, server() the last of them. */
function redlock_nodes(): array
{
    return explode(',', getenv('REDISLOCK_ZTS_NODES'));
}
/** How many of redlock_nodes() still have the lock key of $resource. */
function redlock_keys_left(string $resource): int
{
    $n = 0;
    foreach (redlock_nodes() as $node) {
        $n += (new Raw('zts-check', (int)explode(':', $node)[1]))->cmd('EXISTS', "lock:$resource");
    }
    return $n;
}

function check(bool $ok, string $what): void
{
    echo $ok ? "ok $what\n" : "FAIL $what\n";
}

/**
 * The other threads' part in the fatal-error scenarios (b, e): hold a lock
 * "$s:tN" while thread 0 dies, and see it still held when thread 0 says
 * "$s:t0done".
 */
function hold_while_thread0_dies(Raw $raw, string $s): void
{
    $n = thread();
    $lock = new RedisLock(server());
    $token = $lock->lock("$s:t$n", 120000, 5.0);
    check($token !== null, "$s: thread $n: holds its lock");
    $raw->cmd('INCR', "$s:ready");
    check(Raw::until(fn() => $raw->cmd('GET', "$s:t0done") !== null, 120), "$s: thread $n: thread 0 done");
    check($raw->cmd('GET', "lock:$s:t$n") === $token && $lock->isHeld("$s:t$n"),
          "$s: thread $n: its lock still held after thread 0's fatal errors");
    check($lock->unlock("$s:t$n", $token), "$s: thread $n: unlocks it");
}

/** Whether every other thread's lock of scenario $s is still held. */
function others_held(Raw $raw, string $s): bool
{
    for ($t = 1; $t < threads(); $t++) {
        if ($raw->cmd('GET', "lock:$s:t$t") === null) {
            return false;
        }
    }
    return true;
}
