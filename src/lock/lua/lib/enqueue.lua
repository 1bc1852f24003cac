-- queue waiter ARGV[3] for ARGV[4] ms when ARGV[5] is '1' (queue
-- KEYS[q]), its deadline on the server's clock (taken here: only a waiter
-- that queues pays for it).
--@params q
if ARGV[5] == '1' then
  --@ now
  local wait = tonumber(ARGV[4])
  redis.call('rpush', KEYS[$q], (now + wait) .. ':' .. ARGV[3])
  if redis.call('pttl', KEYS[$q]) < wait + 1000 then redis.call('pexpire', KEYS[$q], wait + 1000) end
end
