-- SCAN: KEYS[1] a key of the master's slots (not read: it routes the
-- command on a Cluster); ARGV the cursor, the MATCH pattern, COUNT, after
-- (the SHA1 of the last key sent of this cursor's page, '' for none), the
-- prefix's length, the longest name sent whole, the most names a reply
-- carries, how much of a longer name's end is sent. One page of SCAN,
-- bounded whatever the keys are: its keys in the order of their SHA1 (a
-- page sent in parts goes on where it stopped, also when keys came or
-- went meanwhile), each without the prefix; a name longer than `shown` as
-- {its first `shown` bytes, its length, its last `tail` bytes, its SHA1}
-- (two long names alike at the start stay two). Reply
-- {the next cursor, '' or the SHA1 of the last key sent (then the same
-- cursor: its page goes on from there), the names}.
--@keys lock
local page = redis.call('scan', ARGV[1], 'match', ARGV[2], 'count', ARGV[3])
local at, shown, most, tail = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local left = {}
for _, k in ipairs(page[2]) do
  local h = redis.sha1hex(k)
  if h > ARGV[4] then left[#left + 1] = {h, k} end
end
table.sort(left, function(a, b) return a[1] < b[1] end)
local names = {}
for i, e in ipairs(left) do
  if i > most then return {ARGV[1], left[most][1], names} end
  local name = string.sub(e[2], at + 1)
  if #name > shown then
    name = {string.sub(name, 1, shown), #name, string.sub(name, -tail), redis.sha1hex(name)}
  end
  names[i] = name
end
return {page[1], '', names}
