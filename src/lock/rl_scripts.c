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
 *   K\0w  the wake stream: a release appends one entry "w" = <id of
 *         the waiter it woke>; every waiter blocks on it with XREAD
 *         from the last entry it saw, and only the one named acts;
 *         the last waiter to leave the queue deletes it;
 *   K\0f  the fence counter (option "fencing"): INCR at every acquisition,
 *         no TTL (a fencing number must never go back).
 * A stream rather than a list per waiter: a list per waiter would need its
 * name built in Lua (the release only learns the id from the queue), and
 * one shared list would let one waiter take another's wake-up.
 */
static const char *const sources[RL_SCRIPT_COUNT] = {
    /* RELEASE: KEYS lock, queue, reservation, wake stream; ARGV[1] token */
    "if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end "
    "redis.call('del', KEYS[1]) "
    "local e = redis.call('lpop', KEYS[2]) "
    "if e then "
    "  local t = redis.call('time') "
    "  local now = t[1] * 1000 + math.floor(t[2] / 1000) "
    "  while e do "
    "    local sep = string.find(e, ':', 1, true) "
    "    local deadline = tonumber(string.sub(e, 1, sep - 1)) "
    "    if deadline >= now then "
    "      local id = string.sub(e, sep + 1) "
    "      redis.call('xadd', KEYS[4], 'maxlen', '~', '64', '*', 'w', id) "
    "      if redis.call('pttl', KEYS[4]) < deadline - now + 1000 then "
    "        redis.call('pexpire', KEYS[4], deadline - now + 1000) "
    "      end "
    "      redis.call('set', KEYS[3], id, 'px', 200) "
    "      break "
    "    end "
    "    e = redis.call('lpop', KEYS[2]) "
    "  end "
    "end "
    "return 1",

    /* EXTEND: KEYS lock; ARGV[1] token, ARGV[2] ttl ms */
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0",

    /* ACQUIRE: KEYS lock [, fence counter]; ARGV[1] token, ARGV[2] ttl ms.
     * 0: held by another; else 1, or with a fence counter the number of
     * this acquisition (the counter's value: ours already, it is unchanged) */
    "local v = redis.call('get', KEYS[1]) "
    "if v == ARGV[1] then "
    "  redis.call('pexpire', KEYS[1], ARGV[2]) "
    "  if KEYS[2] then return tonumber(redis.call('get', KEYS[2]) or redis.call('incr', KEYS[2])) end "
    "  return 1 "
    "end "
    "if v then return 0 end "
    "local f = 1 "
    "if KEYS[2] then f = redis.call('incr', KEYS[2]) end " /* first: a counter that cannot count takes nothing */
    "redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) "
    "return f",

    /* ACQUIRE_WAIT: KEYS lock, queue, reservation [, fence counter];
     * ARGV[1] token, ARGV[2] ttl ms, ARGV[3] waiter id, ARGV[4] ms the
     * waiter will wait, ARGV[5] '1' to queue. -3 - F: taken (or already
     * ours), F the number of this acquisition (0 without a fence counter);
     * else the PTTL of the lock, or of the reservation for a woken waiter
     * (-1: no TTL). */
    "local v = redis.call('get', KEYS[1]) "
    "if v == ARGV[1] then "
    "  if KEYS[4] then return -3 - tonumber(redis.call('get', KEYS[4]) or redis.call('incr', KEYS[4])) end "
    "  return -3 "
    "end "
    "if not v then "
    "  local woken = redis.call('get', KEYS[3]) "
    "  if not woken or woken == ARGV[3] then "
    "    local f = 0 "
    "    if KEYS[4] then f = redis.call('incr', KEYS[4]) end "
    "    redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) "
    "    if woken then redis.call('del', KEYS[3]) end "
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

    /* LEAVE: KEYS queue, reservation, wake stream; ARGV[1] waiter id. The
     * last waiter to leave takes the wake stream with it. */
    "local tail = ':' .. ARGV[1] "
    "for _, e in ipairs(redis.call('lrange', KEYS[1], 0, -1)) do "
    "  if string.sub(e, -string.len(tail)) == tail then redis.call('lrem', KEYS[1], 0, e) end "
    "end "
    "if redis.call('get', KEYS[2]) == ARGV[1] then redis.call('del', KEYS[2]) end "
    "if redis.call('exists', KEYS[1]) == 0 then redis.call('del', KEYS[3]) end "
    "return 1",

    /* FENCE_RAISE: KEYS fence counter; ARGV[1] a number. Raises the
     * counter to it, never lowers it (RedLock's write-back of the number
     * a quorum acquisition got). Returns 1. */
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
