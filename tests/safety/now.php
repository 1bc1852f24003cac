<?php
/*
 * The safety suite's one clock: CLOCK_MONOTONIC in microseconds (hrtime),
 * the same in every process of the machine and never stepped, so the
 * workers' records and the faults' windows compare across processes while
 * the servers' wall clocks are shifted by a fault (clock.php).
 *
 * A fault window, as the topologies' inject() return it:
 *   ['fault' => name, 'start' => µs, 'end' => µs,
 *    'quorum' => bool   calls may fail meanwhile (the quorum, or the only node, is out of reach),
 *    'breaks' => [...]  what the theory says this occurrence may break without fencing:
 *                       'exclusion' (the servers forget a held lock: two holders' own views overlap),
 *                       'writes'    (a holder goes on past its validity: its write lands in another's section)]
 * and, optionally:
 *    'clients' => [w...]           the only clients it hits (none said: all),
 *    'breaks_auto_extend' => [...] what it may break when the workers use auto_extend, where that
 *                                  differs (a clock under 2x fast: the watchdog extends in time),
 *    'detail' => string            what it did, for a person (nodes, rates, durations).
 */
function rl_safety_now(): int
{
    return intdiv(hrtime(true), 1000);
}
