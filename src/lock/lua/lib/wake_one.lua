-- append waiter `id` to its wake stream: KEYS[w + b], b its bucket
-- (the last hex digit of the id, as rl_wake_bucket()), and the next waiter
-- of queue KEYS[q] to its own as next in line ("n": it looks again when
-- the woken one's reservation ends, in case that one died). The stream lives 10 s
-- after its last wake: a wake is of use for its 200 ms reservation (a waiter
-- that missed it looks again within 200 ms), so a stream whose waiters died
-- before their LEAVE (which deletes them) goes soon.
--@params w q
local wk = KEYS[$w + (tonumber(string.sub(id, -1), 16) or 0)]
redis.call('xadd', wk, 'maxlen', '~', '64', '*', 'w', id)
redis.call('pexpire', wk, 10000)
local nx = redis.call('lindex', KEYS[$q], 0)
if nx then
  local nid = string.sub(nx, string.find(nx, ':', 1, true) + 1)
  local nk = KEYS[$w + (tonumber(string.sub(nid, -1), 16) or 0)]
  redis.call('xadd', nk, 'maxlen', '~', '64', '*', 'n', nid)
  redis.call('pexpire', nk, 10000)
end
