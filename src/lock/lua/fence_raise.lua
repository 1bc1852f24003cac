-- FENCE_RAISE: KEYS fence counter; ARGV[1] a number. Raises the
-- counter to it, never lowers it (RedLock's write-back of the number
-- a quorum acquisition got). Returns 1.
--@keys fence
local n = tonumber(ARGV[1])
if tonumber(redis.call('get', KEYS[1]) or '0') < n then redis.call('set', KEYS[1], ARGV[1]) end
return 1
