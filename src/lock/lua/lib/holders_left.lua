-- the holders' sorted set KEYS[z] without its expired entries; `left`
-- gets the ms until its last holder expires (nil: no holder). Needs `now`.
--@params z
redis.call('zremrangebyscore', KEYS[$z], '-inf', now)
local last = redis.call('zrange', KEYS[$z], -1, -1, 'withscores')
local left = last[2] and (tonumber(last[2]) - now) or nil
