-- DEADLOCK: KEYS the wait-for edges of a prefix (a hash: party =>
-- "DEADLINE N RESOURCE TOKEN", the party waits until DEADLINE (ms, the
-- server's clock) for RESOURCE (N bytes), held by TOKEN, whose first 16
-- characters are its holder's party); ARGV[1] the waiter's party, ARGV[2]
-- the resource it waits for, ARGV[3] its holder's token, ARGV[4] ms the
-- waiter waits at most, ARGV[5] the longest resource sent whole. Follows
-- the edges from the holder's party: when they lead back to the waiter,
-- its wait would close a cycle: the edges on it, {RESOURCE, TOKEN, ...}
-- from the waiter's own on, a longer RESOURCE as {the party whose edge
-- names it, its length} (the caller reads it in parts, DEADLOCK_PART: the
-- reply stays within a lock reply's bounds), and the waiter's
-- edge is not recorded (it is the one that gets the error; the caller
-- checks each is still held). Else 0, with its edge recorded for 3 s at
-- most (a live waiter records it again at each look, at least every 2 s:
-- a dead one's goes soon), or until its wait ends; the waiter drops it
-- when done. A wait for
-- the waiter's own lock is no cycle (the lock's TTL ends it) and has no
-- edge. Edges past
-- their deadline are dropped as they are met, and 2 at random each call.
--@keys lock
--@ now
local me, sent = ARGV[1], tonumber(ARGV[5])
local function named(resource, party)
  if #resource > sent then return {party, #resource} end
  return resource
end
local cycle = {named(ARGV[2], me), ARGV[3]}
local p = string.sub(ARGV[3], 1, 16)
if p == me then return 0 end  -- its own lock (another object's): its TTL ends the wait, no edge
for _ = 1, 31 do  -- a cycle of up to 32 parties: a reply of 64 strings at most (the reply bounds)
  if p == me then return cycle end
  local e = redis.call('hget', KEYS[1], p)
  if not e then break end
  local d, n, rest = string.match(e, '^(%d+) (%d+) (.*)$')
  if not d or tonumber(d) < now then redis.call('hdel', KEYS[1], p) break end
  cycle[#cycle + 1] = named(string.sub(rest, 1, tonumber(n)), p)
  cycle[#cycle + 1] = string.sub(rest, tonumber(n) + 1)
  p = string.sub(cycle[#cycle], 1, 16)
end
local some = redis.pcall('hrandfield', KEYS[1], 2)  -- Redis 6.2: before it, no sweep
for _, f in ipairs(type(some) == 'table' and not some.err and some or {}) do
  local d = tonumber(string.match(redis.call('hget', KEYS[1], f) or '', '^(%d+)'))
  if not d or d < now then redis.call('hdel', KEYS[1], f) end
end
local wait = math.min(tonumber(ARGV[4]), 3000)
redis.call('hset', KEYS[1], me, (now + wait) .. ' ' .. #ARGV[2] .. ' ' .. ARGV[2] .. ARGV[3])
if redis.call('pttl', KEYS[1]) < wait + 1000 then redis.call('pexpire', KEYS[1], wait + 1000) end
return 0
