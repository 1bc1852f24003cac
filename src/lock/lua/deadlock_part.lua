-- DEADLOCK_PART: KEYS the wait-for edges of a prefix; ARGV[1] a party,
-- ARGV[2] where the part starts (0: the first byte), ARGV[3] its most
-- bytes, ARGV[4] the resource's length. A part of the resource the
-- party's edge names (the deadlock script names a long one by its edge
-- rather than send it whole): its bytes, or 0 when the party has no edge
-- now or its resource is of another length (a later wait's).
--@keys lock
local e = redis.call('hget', KEYS[1], ARGV[1])
local n, rest = string.match(e or '', '^%d+ (%d+) (.*)$')
if not n or n ~= ARGV[4] then return 0 end
local from = tonumber(ARGV[2])
return string.sub(rest, from + 1, math.min(from + tonumber(ARGV[3]), tonumber(n)))
