-- wake the first live waiter of queue KEYS[q], popping it (its id goes to
-- its wake stream, from KEYS[w], and holds the reservation KEYS[r] for
-- 200 ms); entries whose deadline passed are dropped. With nobody queued
-- it is one LPOP. wake_next.lua is the same for a caller that may refuse
-- the first waiter, who then stays in the queue.
--@params q r w
local e = redis.call('lpop', KEYS[$q])
if e then
  --@ now
  while e do
    local sep = string.find(e, ':', 1, true)
    local deadline = tonumber(string.sub(e, 1, sep - 1))
    if deadline >= now then
      local id = string.sub(e, sep + 1)
      --@ wake_one($w, $q)
      redis.call('set', KEYS[$r], id, 'px', 200)
      break
    end
    e = redis.call('lpop', KEYS[$q])
  end
end
