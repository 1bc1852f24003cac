-- In acquire.lua and acquire_wait.lua, after get_lock: with the shared
-- holders' key KEYS[zs], a shared lock held by the token alone (or by
-- nobody any more) is let go, so that the lock is taken below (`v` nil,
-- `promoted`: taken whoever was woken meanwhile, a shared lock being ours).
local promoted = false
if v == '\0shared' and zs then
  --@ now
  redis.call('zremrangebyscore', KEYS[zs], '-inf', now)
  local n = redis.call('zcard', KEYS[zs])
  if n == 0 or (n == 1 and redis.call('zscore', KEYS[zs], ARGV[1])) then
    redis.call('del', KEYS[1], KEYS[zs])
    v = nil promoted = true
  end
end
