-- `v`, the lock key's value (a semaphore's sorted set there is an
-- error that says so, not WRONGTYPE).
local v = redis.pcall('get', KEYS[1])
if type(v) == 'table' and v.err then return redis.error_reply('the resource is a semaphore, not a lock') end
