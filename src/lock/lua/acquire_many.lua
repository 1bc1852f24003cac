-- ACQUIRE_MANY: for each resource, in the caller's order, KEYS lock,
-- queue, reservation and the waiter's wake stream (its bucket's); ARGV[1]
-- token, ARGV[2] ttl ms, ARGV[3] waiter id, ARGV[4] ms the waiter will
-- wait, ARGV[5] '1' to queue. All or none: -3 when every resource was
-- free (or the token's already: refreshed) and is now the token's; else
-- {PTTL} of the first one held (-1: no TTL; an array, MSETEX's 0 and 1
-- being integers; a sorted set there is held, a key of another type an
-- error naming it, as ACQUIRE's), and when queueing
-- {PTTL, its index (from 1), the id of its wake stream's last entry
-- ('0-0' for none), its holder's token ('' for none or one too long)}:
-- the waiter is queued there alone, keeping its place when it
-- was there already (taken out of the others' queues, its reservations
-- there let go: whoever is next in line looks again when they end).
--@keys lock queue reservation wake
local n = #KEYS / 4
local b
for i = 1, n do
  local k = (i - 1) * 4
  --@ get_lock(k + 1)
  if v ~= ARGV[1] then  -- true (a sorted set) is held too
    if v then b = i break end
    local woken = redis.call('get', KEYS[k + 3])
    if woken and woken ~= ARGV[3] then b = i break end  -- a woken waiter's, for 200 ms
  end
end
if not b then
  for i = 1, n do
    local k = (i - 1) * 4
    redis.call('set', KEYS[k + 1], ARGV[1], 'px', ARGV[2])
    if redis.call('get', KEYS[k + 3]) == ARGV[3] then redis.call('del', KEYS[k + 3]) end
  end
  return -3
end
local k = (b - 1) * 4
local held = redis.pcall('get', KEYS[k + 1])
local pttl = redis.call('pttl', KEYS[k + 1])
if pttl == -2 then pttl = redis.call('pttl', KEYS[k + 3]) end
if ARGV[5] ~= '1' then return {pttl} end
local tail = ':' .. ARGV[3]
local placed = false
for i = 1, n do
  local q = (i - 1) * 4 + 2
  for at, e in ipairs(redis.call('lrange', KEYS[q], 0, -1)) do
    if string.sub(e, -string.len(tail)) == tail then
      if i == b and not placed then  -- its place in line, its deadline renewed
        --@ now
        redis.call('lset', KEYS[q], at - 1, (now + tonumber(ARGV[4])) .. tail)
        placed = true
      else
        redis.call('lrem', KEYS[q], 0, e)
      end
    end
  end
  if i ~= b and redis.call('get', KEYS[q + 1]) == ARGV[3] then redis.call('del', KEYS[q + 1]) end
end
if not placed then
  --@ enqueue(k + 2)
end
if redis.call('pttl', KEYS[k + 2]) < tonumber(ARGV[4]) + 1000 then redis.call('pexpire', KEYS[k + 2], tonumber(ARGV[4]) + 1000) end
local last = redis.pcall('xrevrange', KEYS[k + 4], '+', '-', 'count', 1)
last = type(last) == 'table' and not last.err and last[1]
return {pttl, b, last and last[1] or '0-0', type(held) == 'string' and #held <= 193 and held or ''}
