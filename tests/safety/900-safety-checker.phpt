--TEST--
Safety suite's history checker (tests/safety/history.php) on made-up histories: each guarantee broken once and kept once (holders' own views, fencing numbers, refused writes, interleaved and late writes, shared readers, permits, lost updates, waits not woken, waits starved, releases that woke nobody, views claiming more validity than the protocol gives, stalls, failed calls, a fault on some clients only), what a fault window excuses, and what a predicted break must show
--FILE--
<?php
require __DIR__ . '/history.php';

const MS = 1000;
// an exclusive section of worker $w: granted at $c1 ms believing $valid ms, its read and
// write in the store at $t0..$t1 ms (the write begun at $t1 on the worker's clock too), released at $u ms
function sec(int $w, string $tok, int $c1, int $valid, int $t0, int $t1, int $u, array $more = []): array
{
    return array_replace(['w' => $w, 'op' => 'x', 'res' => ['safety'], 'waits' => false, 'tok' => $tok,
        'c0' => ($c1 - 1) * MS, 'c1' => $c1 * MS, 'obs' => [[$c1 * MS, $valid]], 'woken' => 0, 'rechecked' => 0,
        'data' => ['safety' => ['t0' => $t0 * MS, 't1' => $t1 * MS, 'read' => 0, 'accepted' => true, 'wr0' => $t1 * MS,
                                 'wr1' => $t1 * MS]],
        'u0' => $u * MS, 'u1' => ($u + 1) * MS, 'unlocked' => true], $more);
}
function check(array $records, array $run = []): array
{
    return rl_safety_check($records, $run + ['from' => 0, 'to' => 0, 'windows' => [], 'grace' => 100 * MS,
                                             'accepted' => [], 'final' => [], 'left_keys' => 0, 'permit_limit' => 2]);
}
function show(string $what, array $c): void
{
    $nonzero = array_filter($c, fn($v, $k) => $v !== 0 && $k !== 'sections', ARRAY_FILTER_USE_BOTH);
    echo str_pad($what, 58), ': ', $nonzero ? implode(', ', array_map(fn($k, $v) => "$k $v", array_keys($nonzero), $nonzero)) : 'nothing',
        ($b = rl_safety_broken($c)) ? ' => BROKEN: ' . implode('; ', $b) : '', "\n";
}
$forgot = fn(int $from, int $to) => ['fault' => 'server-restart-empty', 'start' => $from * MS, 'end' => $to * MS,
                                      'quorum' => true, 'breaks' => ['exclusion']];

show('one after another', check([sec(0, 'a', 0, 100, 10, 20, 30), sec(1, 'b', 40, 100, 50, 60, 70)]));
show('B granted while A believed it held', check([sec(0, 'a', 0, 100, 10, 20, 80), sec(1, 'b', 40, 100, 50, 60, 70)]));
show('the same, a server forgot the lock between',
     check([sec(0, 'a', 0, 100, 10, 20, 80), sec(1, 'b', 40, 100, 50, 60, 70)], ['windows' => [$forgot(20, 30)]]));
show('the same token again (a re-entrant take)', check([sec(0, 'a', 0, 100, 10, 20, 80), sec(0, 'a', 40, 100, 50, 60, 70)]));
// A paused in its section past its validity (50 ms): wrote at 90, inside B's section
show('A wrote past its validity, inside B\'s section',
     check([sec(0, 'a', 0, 50, 10, 90, 95), sec(1, 'b', 60, 100, 65, 70, 75)],
           ['accepted' => ['safety' => 2], 'final' => ['safety' => 1]]));
show('the same without being late (its view said valid)',
     check([sec(0, 'a', 0, 50, 10, 90, 95, ['obs' => [[0, 50], [85 * MS, 20]]]), sec(1, 'b', 60, 10, 65, 70, 75)]));
show('the same, its write noted in time but answered after its view ran out',
     check([sec(0, 'a', 0, 50, 10, 120, 125, ['obs' => [[0, 50], [85 * MS, 20]],
                                              'data' => ['safety' => ['t0' => 10 * MS, 't1' => 120 * MS, 'read' => 0,
                                                                      'accepted' => true, 'wr0' => 88 * MS, 'wr1' => 121 * MS]]]),
            sec(1, 'b', 106, 10, 108, 109, 110)]));
show('a lost update without any overlap',
     check([sec(0, 'a', 0, 100, 10, 20, 30), sec(1, 'b', 40, 100, 50, 60, 70)],
           ['accepted' => ['safety' => 2], 'final' => ['safety' => 1]]));

echo "-- fencing\n";
$f = fn(int $n, bool $accepted = true) => ['fence' => ['safety' => $n]];
$refused = fn(array $s) => array_replace_recursive($s, ['data' => ['safety' => ['accepted' => false]]]);
show('numbers that grow', check([sec(0, 'a', 0, 100, 10, 20, 30, $f(1)), sec(1, 'b', 40, 100, 50, 60, 70, $f(2))]));
show('one number given to two acquisitions', check([sec(0, 'a', 0, 100, 10, 20, 30, $f(1)), sec(1, 'b', 40, 100, 50, 60, 70, $f(1))]));
show('a lower number after', check([sec(0, 'a', 0, 100, 10, 20, 30, $f(5)), sec(1, 'b', 40, 100, 50, 60, 70, $f(3))]));
show('a number given again after a server forgot the counter (later section first in the history)',
     check([sec(1, 'b', 40, 100, 50, 60, 70, $f(1)), sec(0, 'a', 0, 100, 10, 20, 30, $f(1))], ['windows' => [$forgot(32, 35)]]));
show('the same after a server forgot the counter',
     check([sec(0, 'a', 0, 100, 10, 20, 30, $f(5)), sec(1, 'b', 40, 100, 50, 60, 70, $f(3))], ['windows' => [$forgot(32, 35)]]));
show('a write refused with no overlap',
     check([sec(0, 'a', 0, 100, 10, 20, 30, $f(1)), $refused(sec(1, 'b', 40, 100, 50, 60, 70, $f(2)))]));
show('a paused holder\'s write refused after the next one\'s',
     check([$refused(sec(0, 'a', 0, 50, 10, 90, 95, $f(1))), sec(1, 'b', 60, 100, 65, 70, 75, $f(2))]));

echo "-- shared holders and permits\n";
$shared = fn(int $w, int $c1, int $valid, int $t0, int $t1, int $read, int $again) => ['w' => $w, 'op' => 'shared',
    'res' => ['safety'], 'waits' => false, 'tok' => "s$w", 'c0' => $c1 * MS - 1, 'c1' => $c1 * MS, 'obs' => [[$c1 * MS, $valid]],
    'woken' => 0, 'rechecked' => 0, 'u0' => ($t1 + 1) * MS, 'u1' => ($t1 + 2) * MS, 'unlocked' => true,
    'data' => ['safety' => ['t0' => $t0 * MS, 't1' => $t1 * MS, 'read' => $read, 'read_again' => $again, 'r1' => $t1 * MS]]];
show('two readers together', check([$shared(0, 0, 100, 5, 20, 0, 0), $shared(1, 2, 100, 6, 21, 0, 0)]));
show('a write between a reader\'s two reads', check([$shared(0, 0, 100, 5, 50, 0, 1), sec(1, 'b', 10, 100, 15, 20, 30)]));
$permit = fn(int $w, int $c1, int $u) => ['w' => $w, 'op' => 'permit', 'res' => ['sem'], 'waits' => false, 'tok' => "p$w",
    'c0' => $c1 * MS - 1, 'c1' => $c1 * MS, 'obs' => [[$c1 * MS, 100]], 'woken' => 0, 'rechecked' => 0,
    'u0' => $u * MS, 'u1' => ($u + 1) * MS, 'unlocked' => true];
show('two permits of two', check([$permit(0, 0, 50), $permit(1, 10, 60), $permit(2, 70, 90)]));
show('three permits of two', check([$permit(0, 0, 50), $permit(1, 10, 60), $permit(2, 20, 90)]));

echo "-- liveness\n";
// a waiter since 5 ms, granted at $at ms: two releases (at 30 and 70 ms) happened while it waited
$waiter = fn(int $at, int $woken, int $rechecked) => sec(2, "c$at", $at, 10, $at + 1, $at + 2, $at + 3,
                                                  ['waits' => true, 'c0' => 5 * MS, 'woken' => $woken, 'rechecked' => $rechecked]);
$released = [sec(0, 'a', 0, 100, 10, 20, 30), sec(1, 'b', 40, 100, 50, 60, 70)];
show('waits woken at the releases they spanned', check([...$released, $waiter(100, 1, 0), $waiter(120, 1, 0)]));
show('waits that spanned releases, ended by their rechecks', check([...$released, $waiter(100, 0, 1), $waiter(120, 0, 1)]));
$grants = [sec(0, 'a', 100, 100, 110, 120, 130), sec(1, 'b', 2500, 100, 2510, 2520, 2530)];
show('no grant for whole seconds', check($grants, ['from' => 0, 'to' => 3000 * MS]));
show('the same inside a fault and its grace',
     check($grants, ['from' => 0, 'to' => 3000 * MS, 'windows' => [['fault' => 'delay', 'start' => 900 * MS, 'end' => 2000 * MS, 'quorum' => false, 'breaks' => []]]]));
$errors = [['w' => 1, 'op' => 'error', 'at' => 500 * MS, 'code' => 5, 'what' => 'lock'],
           ['w' => 1, 'op' => 'error', 'at' => 5000 * MS, 'code' => 5, 'what' => 'lock']];
show('a call failed in a fault that took the quorum, one outside',
     check([...$released, ...$errors], ['windows' => [['fault' => 'server-pause', 'start' => 400 * MS, 'end' => 450 * MS, 'quorum' => true, 'breaks' => []]]]));
show('a fault that cut client 1 only; client 1 and client 2 failed in it',
     check([...$released, ['w' => 1, 'op' => 'error', 'at' => 420 * MS, 'code' => 5, 'what' => 'lock'],
            ['w' => 2, 'op' => 'error', 'at' => 430 * MS, 'code' => 5, 'what' => 'lock']],
           ['windows' => [['fault' => 'cut-both', 'start' => 400 * MS, 'end' => 450 * MS, 'quorum' => true, 'breaks' => [], 'clients' => [1]]]]));
show('a lock key left without a TTL, no section at all', check([], ['left_keys' => 1]));
// a queue of one server: a waiter since 5 ms, granted at 500 ms; others' locks released every 20 ms meanwhile
$turns = fn(int $n) => array_map(fn($i) => sec($i % 2, "t$i", 20 * $i, 100, 20 * $i + 1, 20 * $i + 2, 20 * $i + 10), range(1, $n));
$queued = fn(int $woken, string $queues = 'one', int $rechecked = 1) => sec(2, 'q', 500, 100, 501, 502, 503,
    ['waits' => true, 'c0' => 5 * MS, 'woken' => $woken, 'rechecked' => $rechecked, 'queues' => $queues]);
show('a waiter its timer ended, never woken, nine releases by', check([...$turns(9), $queued(0)]));
show('a waiter its timer ended, never woken, ten releases by', check([...$turns(10), $queued(0)]));
show('the same on RedLock (a queue on each node)', check([...$turns(10), $queued(0, 'many')]));
show('the same, a timeout', check([...$turns(10), ['op' => 'timeout', 'kind' => 'x', 'at' => 500 * MS] + $queued(0)]));
show('the same, a lockMany() timeout', check([...$turns(10), ['op' => 'timeout', 'kind' => 'many', 'at' => 500 * MS] + $queued(0)]));
show('a waiter that never blocked (paused before it queued)', check([...$turns(20), $queued(0, 'one', 0)]));
show('a waiter woken once, fifteen releases by', check([...$turns(15), $queued(1, 'one', 0)]));
$c = check([...$turns(15), $queued(1, 'one', 0)]);
echo str_pad('the same, first-in-first-woken judged (--judge-fifo)', 58), ': ', implode('; ', rl_safety_broken($c, true)), "\n";
$c = check([...$turns(12), $queued(1, 'one', 0)]);
echo str_pad('twelve releases, woken once, judged so', 58), ': ', implode('; ', rl_safety_broken($c, true)) ?: 'holds', "\n";
// twenty releases, each with one blocked waiter (woken or not) spanning it
$each = fn(int $woken) => array_merge(...array_map(fn($i) => [sec(0, "h$i", 100 * $i, 50, 100 * $i + 1, 100 * $i + 2, 100 * $i + 30),
    sec(1, "v$i", 100 * $i + 35, 50, 100 * $i + 36, 100 * $i + 37, 100 * $i + 40,
        ['waits' => true, 'c0' => (100 * $i + 5) * MS, 'woken' => $i < $woken ? 1 : 0, 'rechecked' => $i < $woken ? 0 : 1,
         'queues' => 'one'])], range(0, 19)));
show('twenty releases with a waiter blocked, each woke it', check($each(20)));
show('twenty releases with a waiter blocked, nine wakes', check($each(9)));

echo "-- the holder's view against what the protocol can give\n";
// RedLock, TTL 100 ms, drift allowance 3 ms: valid until 97 ms after the grant returned at most
$view = fn(array $obs, array $more = []) => sec(0, 'a', 10, 0, 11, 12, 50,
    $more + ['ttl' => 100, 'drift_ms' => 3, 'ae' => false, 'obs' => $obs]);
show('a view of 97 ms at the grant', check([$view([[10 * MS, 97, 10 * MS]])]));
show('a view of 98 ms at the grant (the drift not taken off)', check([$view([[10 * MS, 98, 10 * MS]])]));
show('96 ms asked 1 ms after an extend returned', check([$view([[41 * MS, 96, 41 * MS]], ['e1' => 40 * MS])]));
show('97 ms asked 1 ms after an extend returned', check([$view([[41 * MS, 97, 41 * MS]], ['e1' => 40 * MS])]));
show('the watchdog: 97 ms answered 5 ms after it was asked', check([$view([[30 * MS, 97, 35 * MS]], ['ae' => true])]));
show('without the watchdog, the same view', check([$view([[30 * MS, 97, 35 * MS]])]));

echo "-- a predicted break must show\n";
$late = check([sec(0, 'a', 0, 50, 10, 90, 95), sec(1, 'b', 60, 100, 65, 70, 75)]);
echo 'writes predicted, a late write: missing [', implode(', ', rl_safety_shown($late, ['writes'])), "]\n";
echo 'exclusion predicted, none seen: missing [', implode(', ', rl_safety_shown($late, ['exclusion', 'writes'])), "]\n";
$alone = check([sec(0, 'a', 0, 50, 10, 90, 95)]);
echo 'writes predicted, a late write no section met: missing [', implode(', ', rl_safety_shown($alone, ['writes'])), "]\n";
echo 'the same fenced, no write refused: missing [', implode(', ', rl_safety_shown(['mode' => 'redislock+fencing'] + $late, ['writes'])), "]\n";
echo 'the same fenced, one refused: missing [', implode(', ', rl_safety_shown(['mode' => 'redislock+fencing', 'refused' => 1] + $late, ['writes'])), "]\n";
?>
--EXPECT--
one after another                                         : nothing
B granted while A believed it held                        : exclusion 1 => BROKEN: 1 holders believed they held at once
the same, a server forgot the lock between                : exclusion_excused 1
the same token again (a re-entrant take)                  : nothing
A wrote past its validity, inside B's section             : overlaps 1, late_writes 1, lost_updates 1
the same without being late (its view said valid)         : exclusion 1, overlaps 1, overlaps_on_time 1 => BROKEN: 1 holders believed they held at once; 1 sections interleaved with neither past its validity
the same, its write noted in time but answered after its view ran out: overlaps 1, late_writes 1
a lost update without any overlap                         : lost_updates 1 => BROKEN: 1 lost updates without an overlap
-- fencing
numbers that grow                                         : nothing
one number given to two acquisitions                      : fence_dup 1, fence_order 1 => BROKEN: 1 fencing numbers given twice; 1 fencing numbers out of real-time order
a lower number after                                      : fence_order 1 => BROKEN: 1 fencing numbers out of real-time order
a number given again after a server forgot the counter (later section first in the history): fence_excused 2
the same after a server forgot the counter                : fence_excused 1
a write refused with no overlap                           : refused 1, refused_unexplained 1 => BROKEN: 1 fenced writes refused without an overlap
a paused holder's write refused after the next one's      : refused 1, overlaps 1, late_writes 1
-- shared holders and permits
two readers together                                      : nothing
a write between a reader's two reads                      : exclusion 1, shared_dirty 1 => BROKEN: 1 holders believed they held at once; 1 shared holders saw a write
two permits of two                                        : nothing
three permits of two                                      : exclusion 1 => BROKEN: 1 holders believed they held at once
-- liveness
waits woken at the releases they spanned                  : waits_spanning_release 2
waits that spanned releases, ended by their rechecks      : waits_spanning_release 2, unwoken 2 => BROKEN: 2 of 2 waits that spanned a release never woken
no grant for whole seconds                                : stalled 1 => BROKEN: 1 seconds without a grant outside every fault
the same inside a fault and its grace                     : nothing
a call failed in a fault that took the quorum, one outside: failed_calls 2, failed_quorum_up 1 => BROKEN: 1 calls failed while the quorum was up
a fault that cut client 1 only; client 1 and client 2 failed in it: failed_calls 2, failed_quorum_up 1 => BROKEN: 1 calls failed while the quorum was up
a lock key left without a TTL, no section at all          : never_released 1 => BROKEN: 1 lock keys left without a TTL; no critical section ran
a waiter its timer ended, never woken, nine releases by   : waits_spanning_release 1, unwoken 1, releases_awaited 9
a waiter its timer ended, never woken, ten releases by    : waits_spanning_release 1, unwoken 1, starved 1, overtaken 1, releases_awaited 10 => BROKEN: 1 waits on one queue that many releases went by
the same on RedLock (a queue on each node)                : nothing
the same, a timeout                                       : waits_spanning_release 1, unwoken 1, starved 1, overtaken 1, releases_awaited 10 => BROKEN: 1 waits on one queue that many releases went by
the same, a lockMany() timeout                            : waits_spanning_release 1, unwoken 1, releases_awaited 10
a waiter that never blocked (paused before it queued)     : waits_spanning_release 1, overtaken 1
a waiter woken once, fifteen releases by                  : waits_spanning_release 1, overtaken 1, releases_awaited 15, wakes 1
the same, first-in-first-woken judged (--judge-fifo)      : 1 waits on one queue passed over by many releases
twelve releases, woken once, judged so                    : holds
twenty releases with a waiter blocked, each woke it       : waits_spanning_release 20, releases_awaited 20, wakes 20
twenty releases with a waiter blocked, nine wakes         : waits_spanning_release 20, unwoken 11, releases_awaited 20, wakes 9 => BROKEN: 11 of 20 waits that spanned a release never woken; 20 releases with a waiter blocked woke 9 times
-- the holder's view against what the protocol can give
a view of 97 ms at the grant                              : nothing
a view of 98 ms at the grant (the drift not taken off)    : overstated 1 => BROKEN: 1 views claimed more validity than the TTL less the drift from the grant
96 ms asked 1 ms after an extend returned                 : nothing
97 ms asked 1 ms after an extend returned                 : overstated 1 => BROKEN: 1 views claimed more validity than the TTL less the drift from the grant
the watchdog: 97 ms answered 5 ms after it was asked      : nothing
without the watchdog, the same view                       : overstated 1 => BROKEN: 1 views claimed more validity than the TTL less the drift from the grant
-- a predicted break must show
writes predicted, a late write: missing []
exclusion predicted, none seen: missing [exclusion]
writes predicted, a late write no section met: missing [writes]
the same fenced, no write refused: missing [writes]
the same fenced, one refused: missing []
