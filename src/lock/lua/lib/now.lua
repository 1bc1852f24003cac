-- `now`, the server's clock in ms.
local t = redis.call('time') local now = t[1] * 1000 + math.floor(t[2] / 1000)
