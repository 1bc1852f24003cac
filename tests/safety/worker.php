<?php
/*
 * One client of a safety run: until its deadline, sections under the lock,
 * each recorded as it happened (the record format is history.php's). Run by
 * run.php as a child: rl_safety_worker(config).
 *
 * A section is one of, chosen by the seed:
 *   x      lock() on 'safety' (one in four: on 'other', so that every
 *          resource lockMany() takes is also taken alone), a
 *          read-modify-write of its counter in the store;
 *   many   lockMany() on 'safety' and 'other', the same on both counters;
 *   shared lockShared() on 'safety', the counter read twice (no write may
 *          land between: the exclusive holders are kept out);
 *   permit acquirePermit() on 'sem' (limit 2), counted in and out by the
 *          store (RedisLock only: RedLock has no semaphore).
 * Inside it the holder asks its own view (getValidity()) at the grant,
 * after the work, and after the write: what it believes is what the
 * checker holds against the other holders. Without auto_extend it also
 * extends now and then, as a long job does; with it, one section in six
 * works for one or two TTLs (the watchdog must keep it), looking at its
 * view every quarter TTL meanwhile.
 */
require_once __DIR__ . '/../redislock_test.inc';
require_once __DIR__ . '/now.php';

/* The store's side. Read: names the worker as the holder in its section
 * (the holder-pause fault stops that one) and returns TIME and the
 * counter. Write: with a fencing number, refused when the number is below
 * one the store accepted for that resource (the fenced store of the
 * Redlock critics; an equal number is the same acquisition, taken again
 * re-entrantly), counted when accepted. */
const RL_SAFETY_READ = "if ARGV[2] == 'x' then redis.call('set', 'holder', ARGV[3]) end "
    . "local t = redis.call('time') "
    . "return {t[1] * 1000000 + t[2], tonumber(redis.call('get', 'counter:' .. ARGV[1]) or '0')}";
const RL_SAFETY_WRITE = "local t = redis.call('time') local ok = 1 local r = ARGV[1] "
    . "if ARGV[3] ~= '' then "
    . "  local max = tonumber(redis.call('get', 'max_fence:' .. r) or '-1') "
    . "  if tonumber(ARGV[3]) < max then ok = 0 else redis.call('set', 'max_fence:' .. r, ARGV[3]) end "
    . "end "
    . "if ok == 1 then redis.call('set', 'counter:' .. r, ARGV[2]) redis.call('incr', 'accepted:' .. r) end "
    . "if redis.call('get', 'holder') == ARGV[4] then redis.call('del', 'holder') end "
    . "return {t[1] * 1000000 + t[2], ok}";
/* A permit holder in (1) or out (-1): returns how many are in after it. */
const RL_SAFETY_PERMIT = "return redis.call('incrby', 'permits_in', ARGV[1])";

const RL_SAFETY_PERMIT_LIMIT = 2;

/*
 * Option on_lost 'throw' (the rows of issue 34): the lock's callable throws
 * RedisLockLostException while the section works (a lock or a lockMany()
 * section), and holds a loss told elsewhere back until the next look before
 * a store write: a store reply, a history record or a permit count is never
 * cut in half, and a write is never sent once the loss is known.
 */
final class RlSafetyLost
{
    public static bool $interruptible = false;
    public static ?string $held = null;

    public static function onLost(string $resource, string $token, string $why): void
    {
        $msg = "lock \"$resource\" lost ($why)";
        if (self::$interruptible) {
            throw new RedisLockLostException($msg, 20);
        }
        self::$held ??= $msg;
    }

    /** Before a store write: the loss held back, thrown. */
    public static function check(): void
    {
        if (self::$held !== null) {
            $msg = self::$held;
            self::$held = null;
            throw new RedisLockLostException($msg, 20);
        }
    }
}

function rl_safety_lock(array $cfg): RedisLock|RedLock
{
    return $cfg['class'] === 'RedLock'
        ? new RedLock($cfg['server'], 50, 0, $cfg['options'])
        : new RedisLock($cfg['server'], $cfg['options']);
}

/** The section kinds this worker draws from, by weight. */
function rl_safety_kinds(array $cfg): array
{
    $kinds = ['x' => 6, 'many' => 1, 'shared' => 1];
    if ($cfg['class'] === 'RedisLock') {
        $kinds['permit'] = 1;
    }
    return $kinds;
}

function rl_safety_pick_kind(array $kinds): string
{
    $r = mt_rand(1, array_sum($kinds));
    foreach ($kinds as $k => $weight) {
        if (($r -= $weight) <= 0) {
            return $k;
        }
    }
    return 'x';
}

function rl_safety_worker(array $cfg): void
{
    if (($cfg['options']['on_lost'] ?? null) === 'throw') {
        $cfg['options']['on_lost'] = [RlSafetyLost::class, 'onLost'];
    }
    $lock = rl_safety_lock($cfg);
    $store = new RlTestRedis($cfg['store']);
    $out = fopen($cfg['history'], 'a');
    $rec = function (array $r) use ($out, $cfg) {
        fwrite($out, json_encode(['w' => $cfg['w']] + $r) . "\n");
        fflush($out);
    };
    mt_srand($cfg['seed']);
    $kinds = rl_safety_kinds($cfg);
    $fencing = $cfg['options']['fencing'];
    // one client in four tries without waiting and tries again soon (a cron
    // job, a framework's polling block()): it finds a lock that vanished at
    // once, where a woken waiter sleeps until a release or the holder's TTL;
    // the others wait: three in a queue, so that its order shows
    $waits = $cfg['w'] % 4 !== 3;
    // what each section asked, for the checker's bound on the holder's view:
    // the TTL, RedLock's drift allowance (ms, the protocol's: ttl * factor + 2)
    $redlock = $cfg['class'] === 'RedLock';
    $asked = ['ttl' => $cfg['ttl'], 'ae' => (bool)$cfg['options']['auto_extend'], 'queues' => $redlock ? 'many' : 'one',
              'drift_ms' => $redlock ? (int)($cfg['ttl'] * ($cfg['options']['drift_factor'] ?? 0.01)) + 2 : 0];
    $parent = posix_getppid();
    // until the deadline, or until the run that started it is gone (killed)
    while (rl_safety_now() < $cfg['until'] && posix_getppid() === $parent) {
        $kind = rl_safety_pick_kind($kinds);
        $res = match ($kind) {
            'many' => ['safety', 'other'], 'permit' => ['sem'],
            'x' => [mt_rand(0, 3) === 0 ? 'other' : 'safety'], default => ['safety'],
        };
        $main = $res[0];
        $what = 'lock';
        $s = ['op' => $kind, 'res' => $res, 'waits' => $waits] + $asked;
        $tok = null;
        RlSafetyLost::$held = null; /* (a lock released is never told: none of this section's) */
        try {
            $before = RedisLock::stats();
            $s['c0'] = rl_safety_now();
            $wait = $waits ? $cfg['wait'] : 0.0;
            $tok = match ($kind) {
                'x' => $lock->lock($main, $cfg['ttl'], $wait),
                'many' => $lock->lockMany($res, $cfg['ttl'], $wait),
                'shared' => $lock->lockShared($main, $cfg['ttl'], $wait),
                'permit' => $lock->acquirePermit($main, RL_SAFETY_PERMIT_LIMIT, $cfg['ttl'], $wait),
            };
            $s['c1'] = rl_safety_now();
            $after = RedisLock::stats();
            $s['woken'] = $after['waits_woken'] - $before['waits_woken'];
            $s['rechecked'] = $after['waits_rechecked'] - $before['waits_rechecked'];
            if ($tok === null) {
                if ($waits) {
                    $rec(['op' => 'timeout', 'kind' => $kind, 'at' => $s['c1']] + $s);
                } else {
                    usleep(mt_rand(5000, 30000));
                }
                continue;
            }
            $s['tok'] = $tok;   // the same token again: a re-entrant take of a lock this worker still holds
            $s['obs'] = [rl_safety_view($lock, $main)];
            $what = 'section';
            rl_safety_section($s, $cfg, $lock, $store, $tok, $fencing);
            $what = 'unlock';
            $s['u0'] = rl_safety_now();
            try {
                $s['unlocked'] = $kind === 'many' ? $lock->unlockMany($res, $tok) : $lock->unlock($main, $tok);
            } finally { /* the section is recorded whatever the release did */
                $s['u1'] = rl_safety_now();
                $s['unlocked'] ??= false;
                $rec($s);
            }
        } catch (RedisLockLostException $e) {
            // on_lost: the section stopped before a write (or in its work),
            // recorded with what it did; the lost lock let go
            $s['lost'] = ['at' => rl_safety_now(), 'why' => $e->getMessage()];
            $s['u0'] = rl_safety_now();
            try {
                $s['unlocked'] = $kind === 'many' ? $lock->unlockMany($res, $tok) : $lock->unlock($main, $tok);
            } catch (RedisLockException) {
                $s['unlocked'] = false;
            }
            $s['u1'] = rl_safety_now();
            $rec($s);
        } catch (RedisLockException $e) {
            // c0: when the section's first call began (history.php: rl_safety_failed_after_settled())
            $rec(['op' => 'error', 'at' => rl_safety_now(), 'code' => $e->getCode(), 'what' => $what, 'c0' => $s['c0'] ?? null]);
            usleep(20000);
        }
    }
    // the client's counters at the end (history.php: rl_safety_map_refreshes())
    $rec(['op' => 'stats', 'at' => rl_safety_now(), 'stats' => RedisLock::stats()]);
}

/** The holder's own view now: [when asked, ms of validity it believes it has, when answered]. */
function rl_safety_view(RedisLock|RedLock $lock, string $resource): array
{
    $at = rl_safety_now();   // before asking: the belief's end (at + ms) is never later than the lock's
    $ms = $lock->getValidity($resource);
    return [$at, $ms, rl_safety_now()];
}

/** The work of one section between the grant and the release; fills $s. */
function rl_safety_section(array &$s, array $cfg, RedisLock|RedLock $lock, RlTestRedis $store, string $tok,
                           bool $fencing): void
{
    $main = $s['res'][0];
    $w = (string)$cfg['w'];
    $work = function () use ($cfg, $lock, $main, &$s) {
        // on_lost: a lock's (or lockMany()'s) work may be cut short, never a permit's or a reader's
        RlSafetyLost::$interruptible = in_array($s['op'], ['x', 'many'], true);
        try {
            if (!$cfg['options']['auto_extend'] || mt_rand(0, 5) !== 0) {
                usleep(mt_rand($cfg['work_us'][0], $cfg['work_us'][1]));
                return;
            }
            // a long job under the watchdog: one or two TTLs, its view asked as it goes
            $until = rl_safety_now() + mt_rand($cfg['ttl'], 2 * $cfg['ttl']) * 1000;
            while (rl_safety_now() < $until) {
                usleep($cfg['ttl'] * 250);
                $s['obs'][] = rl_safety_view($lock, $main);
            }
        } finally {
            RlSafetyLost::$interruptible = false;
        }
    };
    if ($s['op'] === 'permit') {
        $s['in'] = $store->cmd('EVAL', RL_SAFETY_PERMIT, 0, 1);
        $work();
        $s['obs'][] = rl_safety_view($lock, $main);
        $store->cmd('EVAL', RL_SAFETY_PERMIT, 0, -1);
        return;
    }
    if ($s['op'] === 'shared') {
        [$t0, $v0] = $store->cmd('EVAL', RL_SAFETY_READ, 0, $main, 's', $w);
        $work();
        $s['obs'][] = rl_safety_view($lock, $main);
        [$t1, $v1] = $store->cmd('EVAL', RL_SAFETY_READ, 0, $main, 's', $w);
        $s['data'] = [$main => ['t0' => $t0, 't1' => $t1, 'read' => $v0, 'read_again' => $v1, 'r1' => rl_safety_now()]];
        return;
    }
    $fences = [];
    if ($fencing) {
        foreach ($s['res'] as $r) {
            $fences[$r] = $lock->fencingToken($r);
        }
        if (in_array(null, $fences, true)) {
            // no number: the lock's validity ran out before it could be used
            // (the holder or the server stopped meanwhile); a fenced client
            // does not write then
            $s['expired'] = true;
            return;
        }
        $s['fence'] = $fences;
    }
    $reads = [];
    foreach ($s['res'] as $r) {
        $reads[$r] = $store->cmd('EVAL', RL_SAFETY_READ, 0, $r, 'x', $w);
    }
    $work();
    if (!$cfg['options']['auto_extend'] && mt_rand(0, 4) === 0) {
        // a long job extends its lock; the view after it says what it won
        $s['extended'] = $s['op'] === 'many' ? null : $lock->extend($main, $tok, $cfg['ttl']);
        $s['e1'] = rl_safety_now();
    }
    $s['obs'][] = rl_safety_view($lock, $main);
    $s['data'] = [];
    foreach ($s['res'] as $r) {
        [$t0, $read] = $reads[$r];
        RlSafetyLost::check();
        $wr0 = rl_safety_now();
        [$t1, $ok] = $store->cmd('EVAL', RL_SAFETY_WRITE, 0, $r, $read + 1, $fencing ? (string)$fences[$r] : '', $w);
        $s['data'][$r] = ['t0' => $t0, 't1' => $t1, 'read' => $read, 'accepted' => $ok === 1, 'wr0' => $wr0,
                          'wr1' => rl_safety_now()];
    }
    $s['obs'][] = rl_safety_view($lock, $main);
}
