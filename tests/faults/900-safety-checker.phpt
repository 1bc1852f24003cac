--TEST--
Safety suite's history checker (tests/safety/history.php) on made-up histories: overlapping sections, stale writes (fenced and not), lost updates, failed calls inside and outside a fault's window
--FILE--
<?php
require __DIR__ . '/../safety/history.php';

$sec = fn($w, $t0, $t1, $accepted = true, $fence = null, $unlocked = true) =>
    ['w' => $w, 'op' => 'section', 'fence' => $fence, 't0' => $t0, 't1' => $t1, 'read' => 0,
     'accepted' => $accepted, 'unlocked' => $unlocked];

echo "-- one after another: nothing to report\n";
$h = [$sec(0, 0, 10), $sec(1, 10, 20), $sec(2, 25, 30)];
print_r(rl_safety_check($h, [[null, true], [null, true], [null, true]], 3, [], 1000, 0));

echo "-- a holder paused through two others' sections, its write accepted: one overlap, one stale write, one lost update\n";
$h = [$sec(0, 0, 100, true, null, false), $sec(1, 30, 40), $sec(2, 50, 60)];
print_r(rl_safety_check($h, [[null, true], [null, true], [null, true]], 2, [], 1000, 0));

echo "-- the same with fencing: the store refused the paused holder's number 1 after 2 and 3\n";
$h = [$sec(0, 0, 100, false, 1, false), $sec(1, 30, 40, true, 2), $sec(2, 50, 60, true, 3)];
print_r(rl_safety_check($h, [[2, true], [3, true], [1, false]], 2, [], 1000, 0));

echo "-- a fenced store that accepted a number twice (a duplicated fencing number) is caught\n";
print_r(rl_safety_check([$sec(0, 0, 10, true, 5), $sec(1, 20, 30, true, 5)], [[5, true], [5, true]], 2, [], 1000, 0));

echo "-- failed calls: inside a fault that took the quorum, within the grace after it, and while the quorum was up\n";
$h = [$sec(0, 0, 10), ['w' => 1, 'op' => 'error', 'at' => 500, 'code' => 5, 'what' => 'lock'],
      ['w' => 1, 'op' => 'error', 'at' => 1900, 'code' => 5, 'what' => 'lock'],
      ['w' => 2, 'op' => 'error', 'at' => 5000, 'code' => 5, 'what' => 'unlock'],
      ['w' => 3, 'op' => 'error', 'at' => 6000, 'code' => 5, 'what' => 'lock'],
      ['w' => 3, 'op' => 'timeout', 'at' => 7000]];
print_r(rl_safety_check($h, [[null, true]], 1, [[400, 1000, true], [5500, 6500, false]], 1000, 2));
?>
--EXPECT--
-- one after another: nothing to report
Array
(
    [cycles] => 3
    [overlaps] => 0
    [stale_accepted] => 0
    [stale_refused] => 0
    [lost_updates] => 0
    [unlock_false] => 0
    [never_released] => 0
    [failed_calls] => 0
    [failed_quorum_up] => 0
)
-- a holder paused through two others' sections, its write accepted: one overlap, one stale write, one lost update
Array
(
    [cycles] => 3
    [overlaps] => 1
    [stale_accepted] => 1
    [stale_refused] => 0
    [lost_updates] => 1
    [unlock_false] => 1
    [never_released] => 0
    [failed_calls] => 0
    [failed_quorum_up] => 0
)
-- the same with fencing: the store refused the paused holder's number 1 after 2 and 3
Array
(
    [cycles] => 3
    [overlaps] => 1
    [stale_accepted] => 0
    [stale_refused] => 1
    [lost_updates] => 0
    [unlock_false] => 1
    [never_released] => 0
    [failed_calls] => 0
    [failed_quorum_up] => 0
)
-- a fenced store that accepted a number twice (a duplicated fencing number) is caught
Array
(
    [cycles] => 2
    [overlaps] => 0
    [stale_accepted] => 1
    [stale_refused] => 0
    [lost_updates] => 0
    [unlock_false] => 0
    [never_released] => 0
    [failed_calls] => 0
    [failed_quorum_up] => 0
)
-- failed calls: inside a fault that took the quorum, within the grace after it, and while the quorum was up
Array
(
    [cycles] => 1
    [overlaps] => 0
    [stale_accepted] => 0
    [stale_refused] => 0
    [lost_updates] => 0
    [unlock_false] => 0
    [never_released] => 2
    [failed_calls] => 4
    [failed_quorum_up] => 2
)
