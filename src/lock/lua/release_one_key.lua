-- RELEASE_ONE_KEY: KEYS lock; ARGV[1] token, ARGV[2] '1' for
-- forceUnlock. RELEASE on the lock key alone, for a Cluster slot being
-- migrated, where a script of several keys is answered TRYAGAIN until
-- the migration ends: nobody is woken (waiters find the resource free
-- on their next look). 1 when it was held and is released, 0 when not,
-- -1 for a shared lock (its holders are another key: not released).
--@keys lock
local v = redis.pcall('get', KEYS[1])
if v == '\0shared' then return -1 end
if ARGV[2] == '1' then return redis.call('del', KEYS[1]) end
if type(v) == 'table' then  -- a semaphore's permits
  local s = redis.call('zscore', KEYS[1], ARGV[1])
  if not s then return 0 end
  redis.call('zrem', KEYS[1], ARGV[1])
  --@ now
  if tonumber(s) < now then return 0 end
  return 1
end
if v == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
