-- RELEASE: KEYS lock, queue, reservation, shared holders, wake streams;
-- ARGV[1] token, of any kind (lock, shared lock, permit); ARGV[2] '1'
-- to release whoever holds it (forceUnlock). 1 when it was held and is
-- released; the next live waiter is woken when that freed the resource
-- (a lock, the last shared holder, or a permit). A lock's release with
-- nobody queued is GET, DEL, LPOP.
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
local e = redis.call('lpop', KEYS[2])
if e then
  --@ now
  while e do
    local sep = string.find(e, ':', 1, true)
    local deadline = tonumber(string.sub(e, 1, sep - 1))
    if deadline >= now then
      local id = string.sub(e, sep + 1)
      --@ wake_one(5, 2)
      redis.call('set', KEYS[3], id, 'px', 200)
      break
    end
    e = redis.call('lpop', KEYS[2])
  end
end
return 1
