<?php
/*
 * One client of a safety run: until its deadline, a read-modify-write of the
 * store's counter under the lock, each recorded (see history.php). Run by
 * run.php as a child: rl_safety_worker(config).
 */
require_once __DIR__ . '/../redislock_test.inc';

/* The store's side: the read returns TIME and the counter and names the
 * worker in its section ('holder', which its write clears); the write, with
 * a fencing number, is refused unless the number is above every number the
 * store accepted before (the fenced store of the Redlock critics), and is
 * logged with its verdict either way. */
const RL_SAFETY_READ = "redis.call('set', 'holder', ARGV[1]) local t = redis.call('time') "
    . "return {t[1] * 1000000 + t[2], tonumber(redis.call('get', 'counter') or '0')}";
const RL_SAFETY_WRITE = "local t = redis.call('time') local ok = 1 "
    . "if ARGV[2] ~= '' then "
    . "  local max = tonumber(redis.call('get', 'max_fence') or '-1') "
    . "  if tonumber(ARGV[2]) <= max then ok = 0 else redis.call('set', 'max_fence', ARGV[2]) end "
    . "end "
    . "if ok == 1 then redis.call('set', 'counter', ARGV[1]) end "
    . "redis.call('rpush', 'writes', ARGV[2] .. ':' .. ok) "
    . "if redis.call('get', 'holder') == ARGV[3] then redis.call('del', 'holder') end "
    . "return {t[1] * 1000000 + t[2], ok}";

function rl_safety_lock(array $cfg): RedisLock|RedLock
{
    return $cfg['class'] === 'RedLock'
        ? new RedLock($cfg['server'], 50, 0, $cfg['options'])
        : new RedisLock($cfg['server'], $cfg['options']);
}

function rl_safety_worker(array $cfg): void
{
    $lock = rl_safety_lock($cfg);
    $store = new RlTestRedis($cfg['store']);
    $out = fopen($cfg['history'], 'a');
    $rec = function (array $r) use ($out, $cfg) {
        fwrite($out, json_encode(['w' => $cfg['w']] + $r) . "\n");
        fflush($out);
    };
    $now = fn() => (int)(microtime(true) * 1e6);
    mt_srand($cfg['seed']);
    while (microtime(true) < $cfg['until']) {
        $what = 'lock';
        try {
            if ($cfg['w'] % 2 === 1) {
                // every other client tries without waiting and tries again
                // soon (a cron job, a framework's polling block()): it finds
                // a lock that vanished at once, where a woken waiter sleeps
                // until a release or the holder's TTL
                $tok = $lock->lock('safety', $cfg['ttl']);
                if ($tok === null) {
                    usleep(mt_rand(5000, 30000));
                    continue;
                }
            } else {
                $tok = $lock->lock('safety', $cfg['ttl'], $cfg['wait']);
            }
            if ($tok === null) {
                $rec(['op' => 'timeout', 'at' => $now()]);
                continue;
            }
            $fence = $cfg['options']['fencing'] ? $lock->fencingToken('safety') : null;
            if ($cfg['options']['fencing'] && $fence === null) {
                // no number: the lock's validity ran out before it could be
                // used (the holder or the server stopped meanwhile); a
                // fenced client does not write then
                $rec(['op' => 'expired', 'at' => $now()]);
                $what = 'unlock';
                $lock->unlock('safety', $tok);
                continue;
            }
            [$t0, $read] = $store->cmd('EVAL', RL_SAFETY_READ, 0, (string)$cfg['w']);
            usleep(mt_rand($cfg['work_us'][0], $cfg['work_us'][1]));
            [$t1, $ok] = $store->cmd('EVAL', RL_SAFETY_WRITE, 0, $read + 1, $fence === null ? '' : (string)$fence,
                                    (string)$cfg['w']);
            $what = 'unlock';
            try {
                $unlocked = $lock->unlock('safety', $tok);
            } finally { /* the write is recorded whatever the release did */
                $rec(['op' => 'section', 'fence' => $fence, 't0' => $t0, 't1' => $t1, 'read' => $read,
                      'accepted' => $ok === 1, 'unlocked' => $unlocked ?? false]);
                unset($unlocked);
            }
        } catch (RedisLockException $e) {
            $rec(['op' => 'error', 'at' => $now(), 'code' => $e->getCode(), 'what' => $what]);
            usleep(20000);
        }
    }
}
