-- ACQUIRE: KEYS lock [, fence counter] [, shared holders]; ARGV[1]
-- token, ARGV[2] ttl ms, ARGV[3] 's' when the last key is the shared
-- holders' (a shared lock whose only holder is the token becomes its
-- lock: promoted). 0: held by another; else 1, or with a fence counter
-- the number of this acquisition (the counter's value: ours already,
-- it is unchanged)
--@keys lock fence? shared?
--@ get_lock
local zs = ARGV[3] == 's' and #KEYS or nil
local fk = #KEYS > 1 and 2 ~= zs and KEYS[2] or nil
if v == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  if fk then return tonumber(redis.call('get', fk) or redis.call('incr', fk)) end
  return 1
end
--@ promote
if v then return 0 end
local f = 1
if fk then f = redis.call('incr', fk) end  -- first: a counter that cannot count takes nothing
redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
return f
