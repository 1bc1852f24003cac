-- wake every live waiter of queue KEYS[q] as done ("d": the holder's work
-- is over; a stampede guard's waiter returns without the lock, any other
-- waiter looks again): the queue is emptied, and each bucket's wake stream,
-- from KEYS[w], gets entries with its waiters' ids, separated by ',', 64
-- ids at most per entry (an XREAD of 64 entries stays within the reply
-- bounds of rl_reply_guard.h). $v (nil: none) is the holder's result, in
-- field "v" of each entry, handed to the guard's waiters with their wake
-- (at most RL_ONCE_VALUE_MAX bytes, a wait connection's raised bounds).
-- With nobody queued it is one LRANGE.
--@params q w v
local all = redis.call('lrange', KEYS[$q], 0, -1)
if #all > 0 then
  redis.call('del', KEYS[$q])
  --@ now
  local ids = {}
  for k, e in ipairs(all) do
    local sep = string.find(e, ':', 1, true)
    if tonumber(string.sub(e, 1, sep - 1)) >= now then
      local id = string.sub(e, sep + 1)
      local b = tonumber(string.sub(id, -1), 16) or 0
      ids[b] = ids[b] or {}
      table.insert(ids[b], id)
    end
  end
  for b = 0, 15 do
    if ids[b] then
      for from = 1, #ids[b], 64 do
        local named = table.concat(ids[b], ',', from, math.min(from + 63, #ids[b]))
        if $v then
          redis.call('xadd', KEYS[$w + b], 'maxlen', '~', '64', '*', 'd', named, 'v', $v)
        else
          redis.call('xadd', KEYS[$w + b], 'maxlen', '~', '64', '*', 'd', named)
        end
      end
      redis.call('pexpire', KEYS[$w + b], 10000)
    end
  end
end
