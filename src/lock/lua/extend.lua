-- EXTEND: KEYS lock [, shared holders]; ARGV[1] token (of any kind),
-- ARGV[2] ttl ms. 1 when it held and now has ttl left (a key of several
-- holders lives as long as its longest); -1: a shared lock, to be asked
-- again with its holders' key (one key keeps a lock's extend to its
-- key's node during a Cluster slot migration, where several keys would
-- be answered TRYAGAIN).
--@keys lock shared?
local v = redis.pcall('get', KEYS[1])
if v == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
local z
if v == '\0shared' then
  if not KEYS[2] then return -1 end
  z = 2
elseif type(v) == 'table' then z = 1 else return 0 end
--@ now
local s = redis.call('zscore', KEYS[z], ARGV[1])  -- another type: its WRONGTYPE error
if not s or tonumber(s) < now then return 0 end
redis.call('zadd', KEYS[z], now + tonumber(ARGV[2]), ARGV[1])
--@ holders_left(z)
redis.call('pexpire', KEYS[1], left)
if z == 2 then redis.call('pexpire', KEYS[2], left) end
return 1
