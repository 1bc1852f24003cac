-- LEAVE: KEYS queue, reservation, wake streams; ARGV[1] waiter id. The
-- last waiter to leave takes the wake streams with it.
--@keys queue reservation wake*
local tail = ':' .. ARGV[1]
for _, e in ipairs(redis.call('lrange', KEYS[1], 0, -1)) do
  if string.sub(e, -string.len(tail)) == tail then redis.call('lrem', KEYS[1], 0, e) end
end
if redis.call('get', KEYS[2]) == ARGV[1] then redis.call('del', KEYS[2]) end
if redis.call('exists', KEYS[1]) == 0 then redis.call('del', unpack(KEYS, 3)) end
return 1
