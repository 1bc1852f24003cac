-- ACQUIRE: KEYS lock [, fence counter] [, shared holders]; ARGV[1]
-- token, ARGV[2] ttl ms, ARGV[3] flags (optional): 's' when the last
-- key is the shared holders' (a shared lock whose only holder is the
-- token becomes its lock: promoted), 'h' when the caller holds this
-- lock already (a re-entrant acquire), 'n' when a lock the token holds
-- counts as held (SET NX's answer). 0: held by another; else 1, or
-- with a fence counter the number of this acquisition (a new count;
-- the counter's value, unchanged, for a re-entrant acquire)
--@keys lock fence? shared?
--@ get_lock(1)
local flags = ARGV[3] or ''
local zs = flags:find('s', 1, true) and #KEYS or nil
local fk = #KEYS > 1 and 2 ~= zs and KEYS[2] or nil
if v == ARGV[1] and not flags:find('n', 1, true) then
  redis.call('pexpire', KEYS[1], ARGV[2])
  --@ fence_of_ours
  return n or 1
end
--@ promote
if v then return 0 end
local f = 1
if fk then f = redis.call('incr', fk) end  -- first: a counter that cannot count takes nothing
redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
return f
