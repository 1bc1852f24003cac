-- RELEASE: KEYS lock, queue, reservation, shared holders, wake streams;
-- ARGV[1] token, of any kind (lock, shared lock, permit); ARGV[2] '1'
-- to release whoever holds it (forceUnlock); ARGV[3] 'd' (optional): the
-- holder's work is done, every waiter is woken as done (a stampede
-- guard's rebuild ended); ARGV[4] (optional, with 'd'): the rebuild's
-- result, handed to those waiters with their wake. 1 when it was held and is released; the next
-- live waiter is woken when that freed the resource (a lock, the last
-- shared holder, or a permit). A lock's release with nobody queued is
-- GET, DEL, LPOP (LRANGE when done).
--@keys lock queue reservation shared wake*
if ARGV[2] == '1' then
  if redis.call('del', KEYS[1], KEYS[4]) == 0 then return 0 end
else
local v = redis.pcall('get', KEYS[1])
if type(v) == 'table' or v == '\0shared' then
  local z = type(v) == 'table' and 1 or 4  -- a semaphore's permits, or the shared holders
  local s = redis.call('zscore', KEYS[z], ARGV[1])  -- another type: its WRONGTYPE error
  if not s then return 0 end
  redis.call('zrem', KEYS[z], ARGV[1])
  --@ now
  if tonumber(s) < now then return 0 end
  if z == 4 then
    --@ holders_left(4)
    if left then
      redis.call('pexpire', KEYS[1], left) redis.call('pexpire', KEYS[4], left)
      return 1
    end
    redis.call('del', KEYS[1], KEYS[4])
  end
elseif v == ARGV[1] then
  redis.call('del', KEYS[1])
else return 0 end
end
if ARGV[3] == 'd' then
  --@ wake_all(2, 5, ARGV[4])
else
  --@ wake_first(2, 3, 5)
end
return 1
