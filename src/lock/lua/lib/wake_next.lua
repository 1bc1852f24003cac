-- wake the first live waiter of queue KEYS[q] (its id goes to its wake
-- stream, from KEYS[w], and holds the reservation KEYS[r] for 200 ms);
-- entries whose deadline passed are dropped. Needs `now`. `only` is a Lua
-- expression on `id`: a waiter it refuses stays first in the queue
-- (wake_first.lua pops at once, for a caller that takes any waiter).
--@params q r w only
local e = redis.call('lindex', KEYS[$q], 0)
while e do
  local sep = string.find(e, ':', 1, true)
  local deadline = tonumber(string.sub(e, 1, sep - 1))
  local id = string.sub(e, sep + 1)
  if deadline >= now then
    if $only then
      redis.call('lpop', KEYS[$q])
      --@ wake_one($w, $q)
      redis.call('set', KEYS[$r], id, 'px', 200)
    end
    break
  end
  redis.call('lpop', KEYS[$q])
  e = redis.call('lindex', KEYS[$q], 0)
end
