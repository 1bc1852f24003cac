-- In acquire.lua and acquire_wait.lua, for a lock found ours already:
-- `n`, this acquisition's number on fence counter `fk` (nil without
-- one). A re-entrant acquire (flag 'h') keeps the counter's value; any
-- other counts anew, as the token may be one that a release never
-- reached: its holder's number must not be given twice.
local n = fk and (not flags:find('h', 1, true) and redis.call('incr', fk) or tonumber(redis.call('get', fk) or redis.call('incr', fk)))
