-- ACQUIRE_WAIT: KEYS lock, queue, reservation [, fence counter] [,
-- shared holders] [, the waiter's wake stream]; ARGV[1] token, ARGV[2]
-- ttl ms, ARGV[3] waiter id, ARGV[4] ms the waiter will wait, ARGV[5]
-- '1' to queue, ARGV[6] flags (optional), as ACQUIRE's ARGV[3]: 's'
-- promotion, 'h' re-entrant, 'w': the last key is the waiter's wake
-- stream, 'g': a stampede guard's waiter. -3 - F: taken (or already ours), F the number of this
-- acquisition (0 without a fence counter); else the PTTL of the lock, or
-- of the reservation for a woken waiter (-1: no TTL), and with 'w' the
-- reply is {PTTL, the id of the stream's last entry, the holder's token
-- ('' for none, a shared lock, or one too long)}: every wake for this
-- waiter comes after it ('0-0' for a stream not there). +DONE: a
-- guard's waiter looking again (not queueing) that a done release took
-- off the queue (no reservation is its): the holder's work is over, its
-- wake not read yet.
--@keys lock queue reservation fence? shared? wake?
--@ get_lock(1)
local flags = ARGV[6] or ''
local nk = #KEYS
local wk = flags:find('w', 1, true) and KEYS[nk] or nil
if wk then nk = nk - 1 end
local zs = flags:find('s', 1, true) and nk or nil
local fk = nk > 3 and 4 ~= zs and KEYS[4] or nil
if v == ARGV[1] and not flags:find('n', 1, true) then  -- ours already (a retry, or the owner naming its token again): refreshed
  redis.call('pexpire', KEYS[1], ARGV[2])
  --@ fence_of_ours
  return -3 - (n or 0)
end
--@ promote
if not v then
  local woken = redis.call('get', KEYS[3])
  if not woken and ARGV[5] ~= '1' and flags:find('g', 1, true) then
    local queued = false
    for k, e in ipairs(redis.call('lrange', KEYS[2], 0, -1)) do
      queued = queued or string.sub(e, -string.len(ARGV[3]) - 1) == ':' .. ARGV[3]
    end
    if not queued then return {ok = 'DONE'} end
  end
  if promoted or not woken or woken == ARGV[3] then
    local f = 0
    if fk then f = redis.call('incr', fk) end
    redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
    if woken == ARGV[3] then redis.call('del', KEYS[3]) end
    return -3 - f
  end
end
--@ enqueue(2)
local pttl = redis.call('pttl', v and KEYS[1] or KEYS[3])
if wk then  -- a key of another type: from the start (its XREAD fails, the waiter sleeps to its recheck)
  local last = redis.pcall('xrevrange', wk, '+', '-', 'count', 1)
  last = type(last) == 'table' and not last.err and last[1]
  return {pttl, last and last[1] or '0-0', type(v) == 'string' and #v <= 193 and v or ''}
end
return pttl
