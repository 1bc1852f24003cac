-- INSPECT: KEYS lock, queue, fence, shared holders; ARGV[1] the longest
-- token that can name its holder. What an operator sees of a resource,
-- read-only: {kind, holders, pttl, waiters, fence, tokens} (tokens: the
-- live holders' that can carry a name, 16 at most: a longer value, a big
-- cache entry under an empty prefix, is never sent whole, so the reply
-- stays small whatever the keys hold). kind 'free', 'lock', 'shared', 'semaphore', or 'other' (a key of
-- another type, not ours); holders live now (a shared lock's or a
-- semaphore's, 1 for a lock); pttl the lock key's PTTL (-2 none, -1 no
-- TTL); waiters live in the queue; fence the counter's value (-1 none).
--@keys lock queue fence shared
--@ now
local longest = tonumber(ARGV[1])
local function named(list)
  local out = {}
  for _, t in ipairs(list) do if #t <= longest then out[#out + 1] = t end end
  return out
end
local kind, holders, tokens = 'free', 0, {}
local t = redis.call('type', KEYS[1]).ok
if t == 'zset' then
  kind, holders = 'semaphore', redis.call('zcount', KEYS[1], now, '+inf')
  tokens = named(redis.call('zrangebyscore', KEYS[1], now, '+inf', 'limit', 0, 16))
elseif t == 'string' then
  local v = redis.call('get', KEYS[1])
  if v == '\0shared' then
    kind = 'shared'
    if redis.call('type', KEYS[4]).ok == 'zset' then
      holders = redis.call('zcount', KEYS[4], now, '+inf')
      tokens = named(redis.call('zrangebyscore', KEYS[4], now, '+inf', 'limit', 0, 16))
    end
  else
    kind, holders, tokens = 'lock', 1, named({v})
  end
elseif t ~= 'none' then
  kind = 'other'
end
local waiters = 0
if redis.call('type', KEYS[2]).ok == 'list' then
  for _, e in ipairs(redis.call('lrange', KEYS[2], 0, -1)) do
    local sep = string.find(e, ':', 1, true)
    if sep and (tonumber(string.sub(e, 1, sep - 1)) or 0) >= now then waiters = waiters + 1 end
  end
end
local fence = -1
if redis.call('type', KEYS[3]).ok == 'string' then fence = tonumber(redis.call('get', KEYS[3])) or -1 end
return {kind, holders, redis.call('pttl', KEYS[1]), waiters, fence, tokens}
