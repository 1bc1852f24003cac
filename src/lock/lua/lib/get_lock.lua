-- `v`, the value of lock key KEYS[k] (false: free). A sorted set there,
-- one of our semaphores or the lock of Symfony's RedisStore on the same
-- key, is held (`true`); a key of another type is an error naming its type.
--@params k
local v = redis.pcall('get', KEYS[$k])
if type(v) == 'table' and v.err then
  local kind = redis.call('type', KEYS[$k]).ok
  if kind ~= 'zset' then return redis.error_reply('the resource\'s key holds a ' .. kind .. ', not a lock') end
  v = true
end
