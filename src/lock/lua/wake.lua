-- WAKE: KEYS lock, queue, reservation, wake streams. The second half of a
-- release sent as the server's own compare-and-delete (DELEX IFEQ,
-- DELIFEQ: src/lock/rl_native.h) that found waiters queued: the release
-- script's wake, unless the lock was taken since (its holder's release
-- wakes them then). A reservation does not stop it, as it does not stop
-- the release script's wake. 1 when it looked at the queue.
--@keys lock queue reservation wake*
if redis.call('exists', KEYS[1]) == 1 then return 0 end
--@ wake_first(2, 3, 4)
return 1
