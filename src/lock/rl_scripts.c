#include "rl_scripts.h"
#include <string.h>

/*
 * Every key a script touches is in its KEYS (Redis Cluster routes by them,
 * ACL key patterns and Redis Functions want them declared); none is built
 * in Lua. The keys of one lock live in its Cluster slot and start with the
 * lock key (rl_key_derived(): K "\0" letter, then "{T}" with T a tag of
 * K's slot when K has no hash tag of its own), so "~lock:*" ACLs cover them:
 *   K\0q  the waiters' queue (list), entries "<deadline ms>:<id>",
 *         deadline on the server's clock;
 *   K\0r  the woken waiter's reservation (its id, 200 ms): waiters
 *         looking again meanwhile do not take the lock first (FIFO);
 *   K\0A .. K\0P  the wake streams, one per bucket of waiters (the
 *         last hex digit of the waiter's id): a release appends one
 *         entry "w" = <id of the waiter it woke> to that waiter's
 *         stream; waiters block on theirs with XREAD from the last
 *         entry they saw, and only the one named acts; the last waiter
 *         to leave the queue deletes them. 16 streams, not one: every
 *         XREAD blocked on a stream returns at each entry, so with one
 *         stream a release woke every waiter (K waiters: K^2/2 wake-ups
 *         for K handoffs, measured by bench/stampede.php);
 *   K\0f  the fence counter (option "fencing"): INCR at every acquisition,
 *         no TTL (a fencing number must never go back);
 *   K\0s  the shared holders (sorted set: token => expiry, ms on the
 *         server's clock) while K holds the mark "\0shared", whose TTL
 *         is that of the longest shared holder.
 * A semaphore's permits are K itself, a sorted set token => expiry.
 * Waiters of shared locks have ids starting with 's' (others are hex): a
 * shared holder that comes in wakes the next waiter when it is one too.
 * A stream rather than a list per waiter: a list per waiter would need its
 * name built in Lua (the release only learns the id from the queue), and
 * one shared list would let one waiter take another's wake-up.
 */

/* Lua: `v`, the lock key's value (a semaphore's sorted set there is an
 * error that says so, not WRONGTYPE). */
#define GET_LOCK \
    "local v = redis.pcall('get', KEYS[1]) " \
    "if type(v) == 'table' and v.err then return redis.error_reply('the resource is a semaphore, not a lock') end "

/* Lua: `now`, the server's clock in ms. */
#define NOW "local t = redis.call('time') local now = t[1] * 1000 + math.floor(t[2] / 1000) "

/* Lua: append waiter `id` to its wake stream: KEYS[w + b], b its bucket
 * (the last hex digit of the id, as rl_wake_bucket()), and the next waiter
 * of queue KEYS[q] to its own as next in line ("n": it looks again when
 * the woken one's reservation ends, in case that one died). The stream lives 10 s
 * after its last wake: a wake is of use for its 200 ms reservation (a waiter
 * that missed it looks again within 200 ms), so a stream whose waiters died
 * before their LEAVE (which deletes them) goes soon. */
#define WAKE_ONE(w, q) \
    "local wk = KEYS[" w " + (tonumber(string.sub(id, -1), 16) or 0)] " \
    "redis.call('xadd', wk, 'maxlen', '~', '64', '*', 'w', id) " \
    "redis.call('pexpire', wk, 10000) " \
    "local nx = redis.call('lindex', KEYS[" q "], 0) " \
    "if nx then " \
    "  local nid = string.sub(nx, string.find(nx, ':', 1, true) + 1) " \
    "  local nk = KEYS[" w " + (tonumber(string.sub(nid, -1), 16) or 0)] " \
    "  redis.call('xadd', nk, 'maxlen', '~', '64', '*', 'n', nid) " \
    "  redis.call('pexpire', nk, 10000) " \
    "end "

/* Lua: wake the first live waiter of queue KEYS[q] (its id goes to its wake
 * stream, from KEYS[w], and holds the reservation KEYS[r] for 200 ms);
 * entries whose deadline passed are dropped. Needs `now`. `only` is a Lua
 * expression on `id`: a waiter it refuses stays first in the queue. */
#define WAKE_NEXT(q, r, w, only) \
    "local e = redis.call('lindex', KEYS[" q "], 0) " \
    "while e do " \
    "  local sep = string.find(e, ':', 1, true) " \
    "  local deadline = tonumber(string.sub(e, 1, sep - 1)) " \
    "  local id = string.sub(e, sep + 1) " \
    "  if deadline >= now then " \
    "    if " only " then " \
    "      redis.call('lpop', KEYS[" q "]) " \
    WAKE_ONE(w, q) \
    "      redis.call('set', KEYS[" r "], id, 'px', 200) " \
    "    end " \
    "    break " \
    "  end " \
    "  redis.call('lpop', KEYS[" q "]) " \
    "  e = redis.call('lindex', KEYS[" q "], 0) " \
    "end "

/* Lua: the holders' sorted set KEYS[z] without its expired entries; `left`
 * gets the ms until its last holder expires (nil: no holder). Needs `now`. */
#define HOLDERS_LEFT(z) \
    "redis.call('zremrangebyscore', KEYS[" z "], '-inf', now) " \
    "local last = redis.call('zrange', KEYS[" z "], -1, -1, 'withscores') " \
    "local left = last[2] and (tonumber(last[2]) - now) or nil "

/* Lua: queue waiter ARGV[3] for ARGV[4] ms when ARGV[5] is '1' (queue
 * KEYS[q]). Needs `now`. */
#define ENQUEUE(q) \
    "if ARGV[5] == '1' then " \
    "  local wait = tonumber(ARGV[4]) " \
    "  redis.call('rpush', KEYS[" q "], (now + wait) .. ':' .. ARGV[3]) " \
    "  if redis.call('pttl', KEYS[" q "]) < wait + 1000 then redis.call('pexpire', KEYS[" q "], wait + 1000) end " \
    "end "
/* Lua, in ACQUIRE and ACQUIRE_WAIT after GET_LOCK: with the shared
 * holders' key KEYS[zs], a shared lock held by the token alone (or by
 * nobody any more) is let go, so that the lock is taken below (`v` nil,
 * `promoted`: taken whoever was woken meanwhile, a shared lock being ours). */
#define PROMOTE \
    "local promoted = false " \
    "if v == '\\0shared' and zs then " \
    NOW \
    "  redis.call('zremrangebyscore', KEYS[zs], '-inf', now) " \
    "  local n = redis.call('zcard', KEYS[zs]) " \
    "  if n == 0 or (n == 1 and redis.call('zscore', KEYS[zs], ARGV[1])) then " \
    "    redis.call('del', KEYS[1], KEYS[zs]) " \
    "    v = nil promoted = true " \
    "  end " \
    "end "

static const char *const sources[RL_SCRIPT_COUNT] = {
    /* RELEASE: KEYS lock, queue, reservation, shared holders, wake streams;
     * ARGV[1] token, of any kind (lock, shared lock, permit); ARGV[2] '1'
     * to release whoever holds it (forceUnlock). 1 when it was held and is
     * released; the next live waiter is woken when that freed the resource
     * (a lock, the last shared holder, or a permit). A lock's release with
     * nobody queued is GET, DEL, LPOP. */
    [RL_SCRIPT_RELEASE] =
    "if ARGV[2] == '1' then "
    "  if redis.call('del', KEYS[1], KEYS[4]) == 0 then return 0 end "
    "else "
    "local v = redis.pcall('get', KEYS[1]) "
    "if type(v) == 'table' or v == '\\0shared' then "
    "  local z = type(v) == 'table' and 1 or 4 " /* a semaphore's permits, or the shared holders */
    "  local s = redis.call('zscore', KEYS[z], ARGV[1]) " /* another type: its WRONGTYPE error */
    "  if not s then return 0 end "
    "  redis.call('zrem', KEYS[z], ARGV[1]) "
    NOW
    "  if tonumber(s) < now then return 0 end "
    "  if z == 4 then "
    HOLDERS_LEFT("4")
    "    if left then "
    "      redis.call('pexpire', KEYS[1], left) redis.call('pexpire', KEYS[4], left) "
    "      return 1 "
    "    end "
    "    redis.call('del', KEYS[1], KEYS[4]) "
    "  end "
    "elseif v == ARGV[1] then "
    "  redis.call('del', KEYS[1]) "
    "else return 0 end "
    "end "
    "local e = redis.call('lpop', KEYS[2]) "
    "if e then "
    NOW
    "  while e do "
    "    local sep = string.find(e, ':', 1, true) "
    "    local deadline = tonumber(string.sub(e, 1, sep - 1)) "
    "    if deadline >= now then "
    "      local id = string.sub(e, sep + 1) "
    WAKE_ONE("5", "2")
    "      redis.call('set', KEYS[3], id, 'px', 200) "
    "      break "
    "    end "
    "    e = redis.call('lpop', KEYS[2]) "
    "  end "
    "end "
    "return 1",

    /* RELEASE_ONE_KEY: KEYS lock; ARGV[1] token, ARGV[2] '1' for
     * forceUnlock. RELEASE on the lock key alone, for a Cluster slot being
     * migrated, where a script of several keys is answered TRYAGAIN until
     * the migration ends: nobody is woken (waiters find the resource free
     * on their next look). 1 when it was held and is released, 0 when not,
     * -1 for a shared lock (its holders are another key: not released). */
    [RL_SCRIPT_RELEASE_ONE_KEY] =
    "local v = redis.pcall('get', KEYS[1]) "
    "if v == '\\0shared' then return -1 end "
    "if ARGV[2] == '1' then return redis.call('del', KEYS[1]) end "
    "if type(v) == 'table' then " /* a semaphore's permits */
    "  local s = redis.call('zscore', KEYS[1], ARGV[1]) "
    "  if not s then return 0 end "
    "  redis.call('zrem', KEYS[1], ARGV[1]) "
    NOW
    "  if tonumber(s) < now then return 0 end "
    "  return 1 "
    "end "
    "if v == ARGV[1] then return redis.call('del', KEYS[1]) end "
    "return 0",

    /* EXTEND: KEYS lock [, shared holders]; ARGV[1] token (of any kind),
     * ARGV[2] ttl ms. 1 when it held and now has ttl left (a key of several
     * holders lives as long as its longest); -1: a shared lock, to be asked
     * again with its holders' key (one key keeps a lock's extend to its
     * key's node during a Cluster slot migration, where several keys would
     * be answered TRYAGAIN). */
    [RL_SCRIPT_EXTEND] =
    "local v = redis.pcall('get', KEYS[1]) "
    "if v == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end "
    "local z "
    "if v == '\\0shared' then "
    "  if not KEYS[2] then return -1 end "
    "  z = 2 "
    "elseif type(v) == 'table' then z = 1 else return 0 end "
    NOW
    "local s = redis.call('zscore', KEYS[z], ARGV[1]) " /* another type: its WRONGTYPE error */
    "if not s or tonumber(s) < now then return 0 end "
    "redis.call('zadd', KEYS[z], now + tonumber(ARGV[2]), ARGV[1]) "
    HOLDERS_LEFT("z")
    "redis.call('pexpire', KEYS[1], left) "
    "if z == 2 then redis.call('pexpire', KEYS[2], left) end "
    "return 1",

    /* ACQUIRE: KEYS lock [, fence counter] [, shared holders]; ARGV[1]
     * token, ARGV[2] ttl ms, ARGV[3] 's' when the last key is the shared
     * holders' (a shared lock whose only holder is the token becomes its
     * lock: promoted). 0: held by another; else 1, or with a fence counter
     * the number of this acquisition (the counter's value: ours already,
     * it is unchanged) */
    [RL_SCRIPT_ACQUIRE] =
    GET_LOCK
    "local zs = ARGV[3] == 's' and #KEYS or nil "
    "local fk = #KEYS > 1 and 2 ~= zs and KEYS[2] or nil "
    "if v == ARGV[1] then "
    "  redis.call('pexpire', KEYS[1], ARGV[2]) "
    "  if fk then return tonumber(redis.call('get', fk) or redis.call('incr', fk)) end "
    "  return 1 "
    "end "
    PROMOTE
    "if v then return 0 end "
    "local f = 1 "
    "if fk then f = redis.call('incr', fk) end " /* first: a counter that cannot count takes nothing */
    "redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) "
    "return f",

    /* ACQUIRE_WAIT: KEYS lock, queue, reservation [, fence counter] [,
     * shared holders]; ARGV[1] token, ARGV[2] ttl ms, ARGV[3] waiter id,
     * ARGV[4] ms the waiter will wait, ARGV[5] '1' to queue, ARGV[6] 's'
     * when the last key is the shared holders' (promotion, as ACQUIRE's).
     * -3 - F: taken (or already ours), F the number of this acquisition (0
     * without a fence counter); else the PTTL of the lock, or of the
     * reservation for a woken waiter (-1: no TTL). */
    [RL_SCRIPT_ACQUIRE_WAIT] =
    GET_LOCK
    "local zs = ARGV[6] == 's' and #KEYS or nil "
    "local fk = #KEYS > 3 and 4 ~= zs and KEYS[4] or nil "
    "if v == ARGV[1] then " /* ours already (a retry, or the owner naming its token again): refreshed */
    "  redis.call('pexpire', KEYS[1], ARGV[2]) "
    "  if fk then return -3 - tonumber(redis.call('get', fk) or redis.call('incr', fk)) end "
    "  return -3 "
    "end "
    PROMOTE
    "if not v then "
    "  local woken = redis.call('get', KEYS[3]) "
    "  if promoted or not woken or woken == ARGV[3] then "
    "    local f = 0 "
    "    if fk then f = redis.call('incr', fk) end "
    "    redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) "
    "    if woken == ARGV[3] then redis.call('del', KEYS[3]) end "
    "    return -3 - f "
    "  end "
    "end "
    "if ARGV[5] == '1' then "
    "  local t = redis.call('time') "
    "  local left = tonumber(ARGV[4]) "
    "  redis.call('rpush', KEYS[2], (t[1] * 1000 + math.floor(t[2] / 1000) + left) .. ':' .. ARGV[3]) "
    "  if redis.call('pttl', KEYS[2]) < left + 1000 then redis.call('pexpire', KEYS[2], left + 1000) end "
    "end "
    "if not v then return redis.call('pttl', KEYS[3]) end "
    "return redis.call('pttl', KEYS[1])",

    /* LEAVE: KEYS queue, reservation, wake streams; ARGV[1] waiter id. The
     * last waiter to leave takes the wake streams with it. */
    [RL_SCRIPT_LEAVE] =
    "local tail = ':' .. ARGV[1] "
    "for _, e in ipairs(redis.call('lrange', KEYS[1], 0, -1)) do "
    "  if string.sub(e, -string.len(tail)) == tail then redis.call('lrem', KEYS[1], 0, e) end "
    "end "
    "if redis.call('get', KEYS[2]) == ARGV[1] then redis.call('del', KEYS[2]) end "
    "if redis.call('exists', KEYS[1]) == 0 then redis.call('del', unpack(KEYS, 3)) end "
    "return 1",

    /* ACQUIRE_SHARED: KEYS lock, shared holders, queue, reservation, wake
     * streams; ARGV as ACQUIRE_WAIT's (ARGV[5] '0' for one try). -3: taken
     * (or ours already); else the PTTL to look again after. Fair: a live
     * waiter queued before this one goes first unless it is a shared waiter
     * and shared holders are in (so a queued exclusive waiter is not
     * starved by new shared holders); a shared holder coming in wakes the
     * next waiter when that is a shared one too. */
    [RL_SCRIPT_ACQUIRE_SHARED] =
    NOW
    "local kind = redis.call('type', KEYS[1]).ok "
    "if kind == 'zset' then return redis.error_reply('the resource is a semaphore, not a lock') end "
    "local v = kind == 'string' and redis.call('get', KEYS[1]) "
    "if v == ARGV[1] then " /* the token's own lock: made a shared one (demoted) */
    "  redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), ARGV[1]) "
    HOLDERS_LEFT("2")
    "  redis.call('set', KEYS[1], '\\0shared', 'px', left) redis.call('pexpire', KEYS[2], left) "
    WAKE_NEXT("3", "4", "5", "string.sub(id, 1, 1) == 's'")
    "  return -3 "
    "end "
    "if v and v ~= '\\0shared' then "
    ENQUEUE("3")
    "  return redis.call('pttl', KEYS[1]) "
    "end "
    "if v and redis.call('zscore', KEYS[2], ARGV[1]) then " /* ours already: refreshed */
    "  redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), ARGV[1]) "
    HOLDERS_LEFT("2")
    "  redis.call('pexpire', KEYS[1], left) redis.call('pexpire', KEYS[2], left) "
    "  return -3 "
    "end "
    "local woken = redis.call('get', KEYS[4]) "
    "if woken and woken ~= ARGV[3] then "
    ENQUEUE("3")
    "  return redis.call('pttl', KEYS[4]) "
    "end "
    "if woken then "
    "  redis.call('del', KEYS[4]) "
    "else "
    "  local e = redis.call('lindex', KEYS[3], 0) "
    "  while e and tonumber(string.sub(e, 1, string.find(e, ':', 1, true) - 1)) < now do "
    "    redis.call('lpop', KEYS[3]) "
    "    e = redis.call('lindex', KEYS[3], 0) "
    "  end "
    "  if e then "
    "    local first = string.sub(e, string.find(e, ':', 1, true) + 1) "
    "    if first == ARGV[3] then "
    "      redis.call('lpop', KEYS[3]) "
    "    elseif string.sub(first, 1, 1) ~= 's' or not v then "
    "      if not v then "
    WAKE_NEXT("3", "4", "5", "true")
    "      end "
    ENQUEUE("3")
    "      if v then return redis.call('pttl', KEYS[1]) end "
    "      return redis.call('pttl', KEYS[4]) "
    "    end "
    "  end "
    "end "
    "redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), ARGV[1]) "
    HOLDERS_LEFT("2")
    "redis.call('set', KEYS[1], '\\0shared', 'px', left) "
    "redis.call('pexpire', KEYS[2], left) "
    WAKE_NEXT("3", "4", "5", "string.sub(id, 1, 1) == 's'")
    "return -3",

    /* ACQUIRE_PERMIT: KEYS permits (the lock key), queue, reservation, wake
     * streams; ARGV as ACQUIRE_WAIT's, ARGV[6] the limit. -3: taken (or ours
     * already); else the PTTL to look again after (when the first permit
     * expires). A holder coming in with permits to spare wakes the next
     * waiter. */
    [RL_SCRIPT_ACQUIRE_PERMIT] =
    NOW
    "local kind = redis.call('type', KEYS[1]).ok "
    "if kind ~= 'zset' and kind ~= 'none' then return redis.error_reply('the resource is a lock, not a semaphore') end "
    "redis.call('zremrangebyscore', KEYS[1], '-inf', now) "
    "if redis.call('zscore', KEYS[1], ARGV[1]) then " /* ours already: refreshed */
    "  redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[1]) "
    HOLDERS_LEFT("1")
    "  redis.call('pexpire', KEYS[1], left) "
    "  return -3 "
    "end "
    "local limit = tonumber(ARGV[6]) "
    "local n = redis.call('zcard', KEYS[1]) "
    "local woken = redis.call('get', KEYS[3]) "
    "if n < limit and (not woken or woken == ARGV[3]) then "
    "  if woken then redis.call('del', KEYS[3]) end "
    "  redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[1]) "
    HOLDERS_LEFT("1")
    "  redis.call('pexpire', KEYS[1], left) "
    "  if n + 1 < limit then "
    WAKE_NEXT("2", "3", "4", "true")
    "  end "
    "  return -3 "
    "end "
    ENQUEUE("2")
    "if n < limit then return redis.call('pttl', KEYS[3]) end "
    "local first = redis.call('zrange', KEYS[1], 0, 0, 'withscores') "
    "return tonumber(first[2]) - now",

    /* HOLDS: KEYS lock [, shared holders]; ARGV[1] token of any kind, or ''
     * (no token is empty) for anyone at all. 1 when it holds the resource
     * now; -1: a shared lock, to be asked again with its holders' key (one
     * key, as for EXTEND, during a Cluster slot migration). */
    [RL_SCRIPT_HOLDS] =
    "local v = redis.pcall('get', KEYS[1]) "
    "local anyone = ARGV[1] == '' "
    "if v == ARGV[1] then return 1 end "
    "local z "
    "if v == '\\0shared' then "
    "  if not KEYS[2] then return -1 end "
    "  z = 2 "
    "elseif type(v) == 'table' then z = 1 "
    "elseif anyone and v then return 1 else return 0 end "
    NOW
    "if anyone then return #redis.call('zrangebyscore', KEYS[z], now, '+inf', 'limit', 0, 1) end "
    "local s = redis.call('zscore', KEYS[z], ARGV[1]) " /* another type: its WRONGTYPE error */
    "if s and tonumber(s) >= now then return 1 end "
    "return 0",

    /* FENCE_RAISE: KEYS fence counter; ARGV[1] a number. Raises the
     * counter to it, never lowers it (RedLock's write-back of the number
     * a quorum acquisition got). Returns 1. */
    [RL_SCRIPT_FENCE_RAISE] =
    "local n = tonumber(ARGV[1]) "
    "if tonumber(redis.call('get', KEYS[1]) or '0') < n then redis.call('set', KEYS[1], ARGV[1]) end "
    "return 1",
};

static char shas[RL_SCRIPT_COUNT][41];

const char *rl_script_source(rl_script s)
{
    return sources[s];
}

void rl_script_set_sha(rl_script s, const char sha[41])
{
    memcpy(shas[s], sha, 40);
    shas[s][40] = '\0';
}

const char *rl_script_sha(rl_script s)
{
    return shas[s];
}
