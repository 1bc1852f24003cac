-- HOLDS: KEYS lock [, shared holders]; ARGV[1] token of any kind, or ''
-- (no token is empty) for anyone at all. 1 when it holds the resource
-- now; -1: a shared lock, to be asked again with its holders' key (one
-- key, as for EXTEND, during a Cluster slot migration).
--@keys lock shared?
local v = redis.pcall('get', KEYS[1])
local anyone = ARGV[1] == ''
if v == ARGV[1] then return 1 end
local z
if v == '\0shared' then
  if not KEYS[2] then return -1 end
  z = 2
elseif type(v) == 'table' then z = 1
elseif anyone and v then return 1 else return 0 end
--@ now
if anyone then return #redis.call('zrangebyscore', KEYS[z], now, '+inf', 'limit', 0, 1) end
local s = redis.call('zscore', KEYS[z], ARGV[1])  -- another type: its WRONGTYPE error
if s and tonumber(s) >= now then return 1 end
return 0
