-- ACQUIRE_PERMIT: KEYS permits (the lock key), queue, reservation, wake
-- streams; ARGV as ACQUIRE_WAIT's, ARGV[6] the limit. -3: taken (or ours
-- already); else the PTTL to look again after (when the first permit
-- expires). A holder coming in with permits to spare wakes the next
-- waiter.
--@keys lock queue reservation wake*
--@ now
local kind = redis.call('type', KEYS[1]).ok
if kind ~= 'zset' and kind ~= 'none' then return redis.error_reply('the resource is a lock, not a semaphore') end
redis.call('zremrangebyscore', KEYS[1], '-inf', now)
if redis.call('zscore', KEYS[1], ARGV[1]) then  -- ours already: refreshed
  redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  --@ holders_left(1)
  redis.call('pexpire', KEYS[1], left)
  return -3
end
local limit = tonumber(ARGV[6])
local n = redis.call('zcard', KEYS[1])
local woken = redis.call('get', KEYS[3])
if n < limit and (not woken or woken == ARGV[3]) then
  if woken then redis.call('del', KEYS[3]) end
  redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  --@ holders_left(1)
  redis.call('pexpire', KEYS[1], left)
  if n + 1 < limit then
    --@ wake_first(2, 3, 4)
  end
  return -3
end
--@ enqueue(2)
if n < limit then return redis.call('pttl', KEYS[3]) end
local first = redis.call('zrange', KEYS[1], 0, 0, 'withscores')
return tonumber(first[2]) - now
