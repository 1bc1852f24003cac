-- ACQUIRE_SHARED: KEYS lock, shared holders, queue, reservation, wake
-- streams; ARGV as ACQUIRE_WAIT's (ARGV[5] '0' for one try). -3: taken
-- (or ours already); else the PTTL to look again after. Fair: a live
-- waiter queued before this one goes first unless it is a shared waiter
-- and shared holders are in (so a queued exclusive waiter is not
-- starved by new shared holders); a shared holder coming in wakes the
-- next waiter when that is a shared one too.
--@keys lock shared queue reservation wake*
--@ now
local kind = redis.call('type', KEYS[1]).ok
if kind ~= 'string' and kind ~= 'zset' and kind ~= 'none' then
  return redis.error_reply('the resource\'s key holds a ' .. kind .. ', not a lock')
end
-- a sorted set, one of our semaphores or the lock of Symfony's RedisStore on the same key: held
local v = (kind == 'string' and redis.call('get', KEYS[1])) or kind == 'zset'
if v == ARGV[1] then  -- the token's own lock: made a shared one (demoted)
  redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
  --@ holders_left(2)
  redis.call('set', KEYS[1], '\0shared', 'px', left) redis.call('pexpire', KEYS[2], left)
  --@ wake_next(3, 4, 5, string.sub(id, 1, 1) == 's')
  return -3
end
if v and v ~= '\0shared' then
  --@ enqueue(3)
  return redis.call('pttl', KEYS[1])
end
if v and redis.call('zscore', KEYS[2], ARGV[1]) then  -- ours already: refreshed
  redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
  --@ holders_left(2)
  redis.call('pexpire', KEYS[1], left) redis.call('pexpire', KEYS[2], left)
  return -3
end
local woken = redis.call('get', KEYS[4])
if woken and woken ~= ARGV[3] then
  --@ enqueue(3)
  return redis.call('pttl', KEYS[4])
end
if woken then
  redis.call('del', KEYS[4])
else
  local e = redis.call('lindex', KEYS[3], 0)
  while e and tonumber(string.sub(e, 1, string.find(e, ':', 1, true) - 1)) < now do
    redis.call('lpop', KEYS[3])
    e = redis.call('lindex', KEYS[3], 0)
  end
  if e then
    local first = string.sub(e, string.find(e, ':', 1, true) + 1)
    if first == ARGV[3] then
      redis.call('lpop', KEYS[3])
    elseif string.sub(first, 1, 1) ~= 's' or not v then
      if not v then
        --@ wake_first(3, 4, 5)
      end
      --@ enqueue(3)
      if v then return redis.call('pttl', KEYS[1]) end
      return redis.call('pttl', KEYS[4])
    end
  end
end
redis.call('zadd', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
--@ holders_left(2)
redis.call('set', KEYS[1], '\0shared', 'px', left)
redis.call('pexpire', KEYS[2], left)
--@ wake_next(3, 4, 5, string.sub(id, 1, 1) == 's')
return -3
