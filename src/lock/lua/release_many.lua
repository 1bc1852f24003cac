-- RELEASE_MANY: for each resource, KEYS lock, queue, reservation and its
-- wake streams; ARGV[1] token. Each resource the token holds is released
-- and its next live waiter woken, as RELEASE does for a lock; the number
-- released.
--@keys lock queue reservation wake*
local per = 3 + 16  -- RL_WAKE_BUCKETS wake streams
local released = 0
for i = 1, #KEYS / per do
  local k = (i - 1) * per
  if redis.pcall('get', KEYS[k + 1]) == ARGV[1] then  -- another kind (an error): not ours
    redis.call('del', KEYS[k + 1])
    released = released + 1
    --@ wake_first(k + 2, k + 3, k + 4)
  end
end
return released
