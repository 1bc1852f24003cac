#include "rl_scripts.h"
#include <string.h>

/*
 * Waiters queue per lock key, in "<key>\0q": entries "<deadline ms>:<id>",
 * deadline on the server's clock. A waiter blocks on its own list
 * "<key>\0w<id>" (BLPOP), so a wake meant for one waiter is never taken by
 * another. The woken waiter has the lock reserved, "<key>\0r" = its id, for
 * 200 ms: other waiters looking again meanwhile do not take it first (FIFO
 * among waiters); a woken waiter that died holds things up 200 ms at most.
 * All live under the lock key's name, so a user whose ACL allows "lock:*"
 * may use them. Keys are built in the scripts: not for Redis Cluster.
 */
static const char *const sources[RL_SCRIPT_COUNT] = {
    /* RELEASE: KEYS[1] lock key; ARGV[1] token */
    "if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end "
    "redis.call('del', KEYS[1]) "
    "local e = redis.call('lpop', KEYS[1] .. '\\0q') "
    "if e then "
    "  local t = redis.call('time') "
    "  local now = t[1] * 1000 + math.floor(t[2] / 1000) "
    "  while e do "
    "    local sep = string.find(e, ':', 1, true) "
    "    local deadline = tonumber(string.sub(e, 1, sep - 1)) "
    "    if deadline >= now then "
    "      local id = string.sub(e, sep + 1) "
    "      local w = KEYS[1] .. '\\0w' .. id "
    "      redis.call('rpush', w, '1') "
    "      redis.call('pexpire', w, deadline - now + 1000) "
    "      redis.call('set', KEYS[1] .. '\\0r', id, 'px', 200) "
    "      break "
    "    end "
    "    e = redis.call('lpop', KEYS[1] .. '\\0q') "
    "  end "
    "end "
    "return 1",

    /* EXTEND: KEYS[1] lock key; ARGV[1] token, ARGV[2] ttl ms */
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0",

    /* ACQUIRE: KEYS[1] lock key; ARGV[1] token, ARGV[2] ttl ms */
    "local v = redis.call('get', KEYS[1]) "
    "if v == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end "
    "if v then return 0 end "
    "redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) return 1",

    /* ACQUIRE_WAIT: KEYS[1] lock key; ARGV[1] token, ARGV[2] ttl ms,
     * ARGV[3] waiter id, ARGV[4] ms the waiter will wait, ARGV[5] '1' to queue.
     * -3: taken (or already ours); else the PTTL of the lock, or of the
     * reservation for a woken waiter (-1: no TTL). */
    "local v = redis.call('get', KEYS[1]) "
    "if v == ARGV[1] then return -3 end "
    "local r = KEYS[1] .. '\\0r' "
    "if not v then "
    "  local woken = redis.call('get', r) "
    "  if not woken or woken == ARGV[3] then "
    "    redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) "
    "    if woken then redis.call('del', r) end "
    "    return -3 "
    "  end "
    "end "
    "if ARGV[5] == '1' then "
    "  local q = KEYS[1] .. '\\0q' "
    "  local t = redis.call('time') "
    "  local left = tonumber(ARGV[4]) "
    "  redis.call('rpush', q, (t[1] * 1000 + math.floor(t[2] / 1000) + left) .. ':' .. ARGV[3]) "
    "  if redis.call('pttl', q) < left + 1000 then redis.call('pexpire', q, left + 1000) end "
    "end "
    "if not v then return redis.call('pttl', r) end "
    "return redis.call('pttl', KEYS[1])",

    /* LEAVE: KEYS[1] lock key; ARGV[1] waiter id */
    "local q = KEYS[1] .. '\\0q' "
    "local tail = ':' .. ARGV[1] "
    "for _, e in ipairs(redis.call('lrange', q, 0, -1)) do "
    "  if string.sub(e, -string.len(tail)) == tail then redis.call('lrem', q, 0, e) end "
    "end "
    "redis.call('del', KEYS[1] .. '\\0w' .. ARGV[1]) "
    "if redis.call('get', KEYS[1] .. '\\0r') == ARGV[1] then redis.call('del', KEYS[1] .. '\\0r') end "
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
