<?php
/*
 * The history checker: what the workers recorded, judged from the history
 * alone (the store's counters serve only to count lost updates).
 *
 * A worker's record (worker.php writes one JSON object per line):
 *   a section: {"w", "op": "x"|"many"|"shared"|"permit", "res": [names], "waits": bool,
 *     "c0", "c1":   before lock() and after it returned the token (µs, now.php's clock),
 *     "tok": the token (the same token twice: a re-entrant take, one hold),
 *     "woken", "rechecked": the wait's blocking reads that a release woke / that ran to the recheck,
 *     "obs": [[at, ms, answered], ...]: the holder's own view, getValidity() asked at `at`,
 *     "ttl", "drift_ms", "ae": what it asked: the TTL, RedLock's drift allowance (0: one node), auto_extend,
 *     "queues": "one" (a waiter queues on one server) or "many" (RedLock: a queue on each node),
 *     "fence": {res: n} (fencing), "expired": true (fenced, no number: nothing written),
 *     "extended": bool, "e1": an explicit extend(), its answer and when it returned,
 *     "data": {res: {"t0", "t1" (the store's clock, Redis TIME), "read", "accepted", "wr0", "wr1" (around the write)}}
 *             (shared: {"t0", "t1", "read", "read_again"}),
 *     "in": permit holders counted in by the store with this one,
 *     "u0", "u1", "unlocked": around unlock() and its answer};
 *   {"w", "op": "error", "at", "code", "what", "c0"}: a call that threw (c0: its section's start);
 *   {"w", "op": "timeout", "at", ...}: a wait that gave up (another held it);
 *   {"w", "op": "stats", "at", "stats"}: the client's counters (RedisLock::stats()) at its end.
 * Fault windows are now.php's; a window's 'breaks' excuse what it names:
 * 'exclusion' the checks of holders' views and fencing numbers from its
 * start on, 'writes' the late writes (a holder gone on past its validity)
 * it covers.
 *
 * What must hold, each counted:
 *   exclusion     no two holders of a resource believe they hold it at once
 *                 (a holder believes from lock()'s return to the end of its
 *                 last view with validity left, at most until unlock());
 *                 shared holders together are fine; at most the limit of
 *                 permit holders at once;
 *   fence_dup     no fencing number given to two acquisitions of a resource;
 *   fence_order   a section that began after another ended has a higher number;
 *   refused_unexplained  a fenced write refused only when another section's
 *                 reads and writes overlapped it in the store;
 *   overlaps      sections whose store operations interleave (another began
 *                 inside), and of those `overlaps_on_time`: neither side had
 *                 gone past its own validity (a lock failure, not a pause);
 *   shared_dirty  a write landed between a shared holder's two reads while
 *                 it believed it held (past its second read: "r1");
 *   lost_updates  accepted writes the counters lost;
 *   failed_quorum_up  calls that failed outside every window that took the quorum;
 *   stalled       seconds outside every window (and its recovery) with no grant;
 *   unwoken       waits that spanned another's release and were never woken
 *                 (rl_safety_broken() says how many may be);
 *   overstated    views that claimed more validity than the protocol can
 *                 give: past the TTL less the drift allowance from the
 *                 latest grant or extend the holder could have counted from;
 *   starved       waits on one queue that more releases than
 *                 RL_SAFETY_STARVED went by without waking them: ended by
 *                 their own timer (the queue is first in, first woken: a
 *                 waiter is at most a few places from its head);
 *   overtaken     waits on one queue that more releases than
 *                 RL_SAFETY_STARVED went by, beyond RL_SAFETY_QUEUED for
 *                 each wake they read (first in, first woken; judged only
 *                 where the scheduler is assumed fair: rl_safety_broken());
 *   releases_awaited, wakes  releases of a lock while another client's wait
 *                 that blocked spanned them, and the wakes those waits read
 *                 (rl_safety_broken(): a release wakes one).
 *   failed_after_settle  calls that failed though they began after a
 *                 failover or a migration had settled (rl_safety_failed_after_settled());
 *   map_refreshes_extra  Cluster slot maps fetched beyond what the slots'
 *                 moves explain (rl_safety_map_refreshes()).
 */
require_once __DIR__ . '/now.php';

/** The end of what a holder believed: its last view with validity left, never after unlock() began. */
function rl_safety_belief_end(array $s): int
{
    $end = $s['c1'];
    foreach ($s['obs'] ?? [] as [$at, $ms]) {
        if ($ms > 0) {
            $end = max($end, $at + $ms * 1000);
        }
    }
    return min($end, $s['u0'] ?? $end);
}

/** Sections on $res, each with its belief interval [b0, b1]. */
function rl_safety_on(array $sections, string $res): array
{
    $on = [];
    foreach ($sections as $i => $s) {
        if (in_array($res, $s['res'], true)) {
            $on[$i] = $s + ['b0' => $s['c1'], 'b1' => rl_safety_belief_end($s), 'i' => $i];
        }
    }
    return $on;
}

/** Whether an 'exclusion' window was open between $from and $to (µs), or within $grace before $from. */
function rl_safety_forgot(array $windows, int $from, int $to, int $grace): bool
{
    foreach ($windows as $f) {
        if (in_array('exclusion', $f['breaks'], true) && $f['start'] <= $to && $f['end'] + $grace >= $from) {
            return true;
        }
    }
    return false;
}

/** Pairs of holders of one resource whose beliefs overlapped; [explained by a window, not]. */
function rl_safety_exclusion(array $on, array $windows, int $grace): array
{
    $held = array_filter($on, fn($s) => $s['b1'] > $s['b0'] && $s['op'] !== 'permit');
    usort($held, fn($a, $b) => $a['b0'] <=> $b['b0']);
    $explained = $not = 0;
    $n = count($held);
    for ($i = 0; $i < $n; $i++) {
        for ($j = $i + 1; $j < $n && $held[$j]['b0'] < $held[$i]['b1']; $j++) {
            if (($held[$i]['op'] === 'shared' && $held[$j]['op'] === 'shared') || $held[$i]['tok'] === $held[$j]['tok']) {
                continue;
            }
            rl_safety_forgot($windows, $held[$i]['c0'], $held[$j]['c1'], $grace) ? $explained++ : $not++;
        }
    }
    return [$explained, $not];
}

/** Instants at which more permit holders believed they held than the limit; [explained, not]. */
function rl_safety_permits(array $on, int $limit, array $windows, int $grace): array
{
    $events = [];
    foreach ($on as $s) {
        if ($s['b1'] > $s['b0']) {
            $events[] = [$s['b0'], 1, $s];
            $events[] = [$s['b1'], -1, $s];
        }
    }
    usort($events, fn($a, $b) => [$a[0], $a[1]] <=> [$b[0], $b[1]]);   // an end before a start at the same µs
    $in = 0;
    $explained = $not = 0;
    foreach ($events as [$at, $d, $s]) {
        $in += $d;
        if ($d > 0 && $in > $limit) {
            rl_safety_forgot($windows, $at - 10000000, $at, $grace) ? $explained++ : $not++;
        }
    }
    return [$explained, $not];
}

/**
 * Fencing: [duplicates, out of real-time order, refused without an overlap],
 * each [explained, not]. A counter a server forgot stays behind from then
 * on: any earlier 'exclusion' window explains these.
 */
function rl_safety_fencing(array $on, string $res, array $windows, int $grace): array
{
    $fenced = array_values(array_filter($on, fn($s) => isset($s['fence'][$res])));
    usort($fenced, fn($a, $b) => $a['c1'] <=> $b['c1']);   // a number given again: the later grant is the one to explain
    $dup = $order = $refused = [0, 0];
    $seen = [];
    foreach ($fenced as $s) {
        $f = $s['fence'][$res];
        if (isset($seen[$f]) && $seen[$f]['tok'] !== $s['tok']) {
            $dup[rl_safety_forgot($windows, 0, $s['c1'], $grace) ? 0 : 1]++;
        }
        $seen[$f] = $s;
    }
    // every section that ended before this one began must have a lower number
    $byEnd = $fenced;
    usort($byEnd, fn($a, $b) => $a['u1'] <=> $b['u1']);
    $byStart = $fenced;
    usort($byStart, fn($a, $b) => $a['c0'] <=> $b['c0']);
    $k = 0;
    $max = null;
    foreach ($byStart as $s) {
        for (; $k < count($byEnd) && $byEnd[$k]['u1'] < $s['c0']; $k++) {
            if ($max === null || $byEnd[$k]['fence'][$res] > $max['fence'][$res]) {
                $max = $byEnd[$k];
            }
        }
        if ($max !== null && $max['fence'][$res] >= $s['fence'][$res] && $max['tok'] !== $s['tok']) {
            $order[rl_safety_forgot($windows, 0, $s['c1'], $grace) ? 0 : 1]++;
        }
    }
    foreach ($fenced as $s) {
        $d = $s['data'][$res] ?? null;
        if ($d === null || $d['accepted']) {
            continue;
        }
        $overlapped = false;
        foreach ($on as $o) {
            $od = $o['data'][$res] ?? null;
            if ($o['i'] !== $s['i'] && $od !== null && $od['t0'] < $d['t1'] && $d['t0'] < $od['t1']) {
                $overlapped = true;
                break;
            }
        }
        if (!$overlapped) {
            // a counter forgotten by a server is refused until it passes the store's highest
            $refused[rl_safety_forgot($windows, 0, $s['c1'], $grace) ? 0 : 1]++;
        }
    }
    return [$dup, $order, $refused];
}

/**
 * Sections on $res whose store operations another section began inside:
 * [all, on time: neither side's read or write came after its own validity,
 * and no server forgot the lock between them].
 */
function rl_safety_overlaps(array $on, string $res, array $windows, int $grace): array
{
    $data = array_values(array_filter($on, fn($s) => isset($s['data'][$res]) && $s['op'] !== 'shared'));
    usort($data, fn($a, $b) => $a['data'][$res]['t0'] <=> $b['data'][$res]['t0']);
    $all = $onTime = 0;
    $n = count($data);
    for ($i = 0; $i + 1 < $n; $i++) {
        // sorted by start: only the next section can be the first to begin inside this one
        if ($data[$i + 1]['data'][$res]['t0'] < $data[$i]['data'][$res]['t1']) {
            $all++;
            $onTime += !rl_safety_late($data[$i], $res) && !rl_safety_late($data[$i + 1], $res)
                && !rl_safety_forgot($windows, $data[$i]['c0'], $data[$i + 1]['c1'], $grace);
        }
    }
    return [$all, $onTime];
}

/**
 * Whether a section's write may have landed after its holder's own belief
 * had ended: its round trip (wr0..wr1) did not end inside the belief. A
 * holder stopped between noting wr0 and sending the write (a scheduler's
 * pause on a busy machine) sends it late; only a write whose reply came
 * back while the belief held was surely on time.
 */
function rl_safety_late(array $s, string $res): bool
{
    $d = $s['data'][$res] ?? [];
    return isset($d['wr0']) && ($d['wr1'] ?? $d['wr0']) > $s['b1'];
}

/** Shared holders that saw a write between their reads while they believed they held, but for a late writer or a forgotten lock. */
function rl_safety_shared_dirty(array $on, string $res, array $windows, int $grace): int
{
    $dirty = 0;
    foreach ($on as $s) {
        $d = $s['data'][$res] ?? null;
        if ($s['op'] === 'shared' && $d !== null && $d['read'] !== $d['read_again'] && $s['b1'] >= $d['r1']) {
            // a late writer explains it: a write whose holder had gone past its validity
            $late = false;
            foreach ($on as $o) {
                $od = $o['data'][$res] ?? null;
                if ($od !== null && $o['op'] !== 'shared' && $od['t1'] > $d['t0'] && $od['t1'] < $d['t1']
                    && rl_safety_late($o, $res)) {
                    $late = true;
                }
            }
            $dirty += !$late && !rl_safety_forgot($windows, $s['c0'], $d['r1'], $grace);
        }
    }
    return $dirty;
}

/** Waits on one queue that spanned another worker's release of their resource and were never woken: [spanning, unwoken]. */
function rl_safety_unwoken(array $waits, array $releases): array
{
    $spanning = $unwoken = 0;
    foreach ($waits as $s) {
        // RedLock's are not judged: its nodes' queues differ, and a waiter
        // told it is next on some nodes loses to a caller the others let in
        // (on a busy machine, every such wait of a short run may)
        if (($s['queues'] ?? 'one') !== 'many' && rl_safety_spanned($s, $releases) > 0) {
            $spanning++;
            $unwoken += $s['woken'] === 0 && $s['rechecked'] > 0;   // it blocked, and only its recheck ended that
        }
    }
    return [$spanning, $unwoken];
}

/**
 * Views that claimed more validity than the protocol can give. A lock's
 * validity runs from the start of the attempt that won it (or extended it),
 * less RedLock's drift allowance; that start came before the call returned
 * (c1, e1), and before the view was answered when the watchdog may have
 * extended it. So at + ms may not pass that bound + ttl - drift: exact,
 * with no margin (getValidity() rounds down, `at` is taken before asking).
 */
function rl_safety_overstated(array $sections): int
{
    $over = 0;
    foreach ($sections as $s) {
        if (!isset($s['ttl'])) {
            continue;
        }
        $from = max($s['c1'], $s['e1'] ?? 0);
        foreach ($s['obs'] ?? [] as $o) {
            $counted = $s['ae'] ? max($from, $o[2]) : $from;
            $over += $o[1] > 0 && $o[0] + $o[1] * 1000 > $counted + ($s['ttl'] - $s['drift_ms']) * 1000;
        }
    }
    return $over;
}

/** More releases than this by others during one wait on one queue, none of them waking it, is starvation. */
const RL_SAFETY_STARVED = 9;
/** Overtaken: more than RL_SAFETY_STARVED, plus this many for each wake it read (too slow for its turn, it queued again at the tail). */
const RL_SAFETY_QUEUED = 3;

/** The releases of each resource that may wake a waiter (a lock's, not a reader's): [res => [[w, u0, u1]...]]. */
function rl_safety_releases(array $sections): array
{
    $releases = [];
    foreach ($sections as $s) {
        if ($s['unlocked'] && in_array($s['op'], ['x', 'many'], true)) {   // a reader's release may leave others in
            foreach ($s['res'] as $r) {
                $releases[$r][] = [$s['w'], $s['u0'], $s['u1']];
            }
        }
    }
    return $releases;
}

/** The waits (sections and timeouts) that may be judged: they waited, outside every window. */
function rl_safety_waits(array $sections, array $timeouts, array $windows, int $grace): array
{
    return array_values(array_filter(array_merge($sections, $timeouts), fn($s) => ($s['waits'] ?? false)
        && isset($s['c1']) && $s['op'] !== 'permit' && !rl_safety_in_window($windows, $s['c0'], $s['c1'], $grace)));
}

/**
 * Lock waits on one queue (one server: not RedLock, whose nodes' queues may
 * differ) that more than RL_SAFETY_STARVED releases of their resource by
 * others went by, and that no release woke: the wait ended by its own timer
 * (a recheck at the holder's TTL, or the call's deadline). A release wakes
 * the head of the queue, and with three waiters a waiter is at the head
 * within three releases of queueing. Only events count, not time: a
 * waiter the machine left unscheduled before it queued, or after its wake
 * (it queues again), may see any number of releases go by, but it reads a
 * wake (woken) or never blocked at all (no recheck either).
 */
function rl_safety_starved(array $waits, array $releases): int
{
    $starved = 0;
    foreach ($waits as $s) {
        if (!rl_safety_lock_wait_one_queue($s)) {
            continue;
        }
        $byTimer = $s['woken'] === 0 && ($s['rechecked'] > 0 || $s['op'] === 'timeout');
        $starved += $byTimer && rl_safety_spanned($s, $releases) > RL_SAFETY_STARVED;
    }
    return $starved;
}

/**
 * Lock waits on one queue that more releases went by than first in, first
 * woken allows: RL_SAFETY_STARVED, plus RL_SAFETY_QUEUED for each wake it
 * read. A waiter passed over for later ones (a release that wakes the
 * wrong waiter) is woken in the end, once, after many releases. So is a
 * waiter the machine left unscheduled before it queued: this counts the
 * scheduler's fairness too, and is judged only where it is assumed.
 */
function rl_safety_overtaken(array $waits, array $releases): int
{
    $overtaken = 0;
    foreach ($waits as $s) {
        if (rl_safety_lock_wait_one_queue($s)) {
            $overtaken += rl_safety_spanned($s, $releases) > RL_SAFETY_STARVED + RL_SAFETY_QUEUED * $s['woken'];
        }
    }
    return $overtaken;
}

/**
 * A lock's wait (or its timeout) on one server's queue: not lockMany()'s
 * (it needs all of its resources free at once), not a reader's (none held).
 */
function rl_safety_lock_wait_one_queue(array $s): bool
{
    $kind = $s['op'] === 'timeout' ? ($s['kind'] ?? null) : $s['op'];
    return ($s['queues'] ?? 'many') === 'one' && $kind === 'x';
}

/** How many releases of its resource by others a wait spanned. */
function rl_safety_spanned(array $wait, array $releases): int
{
    $n = 0;
    foreach ($releases[$wait['res'][0]] ?? [] as [$w, $u0, $u1]) {
        $n += $w !== $wait['w'] && $u0 > $wait['c0'] && $u1 < $wait['c1'];
    }
    return $n;
}

/**
 * [releases awaited, wakes read]: the releases of a lock ('x') that a
 * blocked wait of another client on one queue spanned, and the wakes its
 * waits read. Each such release wakes the first waiter, so the
 * wakes are about as many as those releases or more; a release that woke
 * nobody leaves a waiter to its recheck.
 */
function rl_safety_wakes(array $sections, array $waits): array
{
    // one queue only: RedLock's waiter reads a wake per node, and a node's wake lost to a fault is its recheck
    $blocked = array_values(array_filter($waits, fn($s) => $s['woken'] + $s['rechecked'] > 0 && ($s['queues'] ?? 'many') === 'one'));
    $awaited = 0;
    foreach ($sections as $s) {
        if (!$s['unlocked'] || $s['op'] !== 'x') {
            continue;
        }
        foreach ($blocked as $x) {
            if ($x['w'] !== $s['w'] && $x['res'][0] === $s['res'][0] && $x['c0'] < $s['u0'] && $x['c1'] > $s['u1']) {
                $awaited++;
                break;
            }
        }
    }
    return [$awaited, array_sum(array_column($blocked, 'woken'))];
}

/**
 * Calls that failed though they began after a window marked 'settled' had
 * ended (a Sentinel or Cluster failover, a slot migration: at its end every
 * node agrees on the new master again) and no other window, or the grace
 * after one that is not settled, met them: a client that follows the new
 * master has no reason to fail then, however long the failover took (one
 * that keeps the old master does, for good). Counted in runs with such a
 * window only.
 */
function rl_safety_failed_after_settled(array $records, array $windows, int $grace): int
{
    $failed = 0;
    foreach ($records as $r) {
        if ($r['op'] !== 'error' || !isset($r['c0'])) {
            continue;
        }
        $after = $met = false;
        foreach ($windows as $f) {
            $settled = $f['settled'] ?? false;
            $after = $after || ($settled && $f['end'] < $r['c0']);
            $met = $met || ($f['start'] <= $r['at'] && $f['end'] + ($settled ? 0 : $grace) >= $r['c0']);
        }
        $failed += $after && !$met;
    }
    return $failed;
}

/**
 * Cluster slot maps a client fetched beyond its first and two per move of
 * the lock's slot (a window's 'slot_moves': a migration), summed
 * over the clients: one that follows ASK and MOVED fetches the map about
 * once a move; one that is sent to and fro between two nodes (an ASK
 * followed without ASKING answered by MOVED) fetches it again at every
 * batch of redirections for as long as the migration lasts. 0 in a run
 * with another window or none: a failover's CLUSTERDOWN, a lost
 * connection, masters that disagree for a moment make a client fetch it
 * again, rightly.
 */
function rl_safety_map_refreshes(array $records, array $windows): int
{
    $moves = array_sum(array_map(fn($f) => $f['slot_moves'] ?? 0, $windows));
    if (count(array_filter($windows, fn($f) => isset($f['slot_moves']))) < count($windows)) {
        return 0;
    }
    $extra = 0;
    foreach ($records as $r) {
        if ($moves > 0 && $r['op'] === 'stats') {
            $extra += max(0, $r['stats']['cluster_map_refreshes'] - 1 - 2 * $moves);
        }
    }
    return $extra;
}

/** Whether [$from, $to] meets any window (widened by $grace after its end). */
function rl_safety_in_window(array $windows, int $from, int $to, int $grace): bool
{
    foreach ($windows as $f) {
        if ($f['start'] <= $to && $f['end'] + $grace >= $from) {
            return true;
        }
    }
    return false;
}

/** Whole seconds of [$from, $to] outside every window (and $grace after it) in which nothing was granted. */
function rl_safety_stalled(array $sections, array $windows, int $from, int $to, int $grace): int
{
    $stalled = 0;
    for ($t = $from; $t + 1000000 <= $to; $t += 1000000) {
        if (rl_safety_in_window($windows, $t, $t + 1000000, $grace)) {
            continue;
        }
        $granted = false;
        foreach ($sections as $s) {
            if ($s['c1'] >= $t && $s['c1'] < $t + 1000000) {
                $granted = true;
                break;
            }
        }
        $stalled += !$granted;
    }
    return $stalled;
}

/**
 * The counts of one run. $run: ['from' => µs, 'to' => µs (the workers'
 * span), 'windows' => fault windows, 'grace' => µs a fault's effects may
 * outlast it, 'accepted' => [res => writes the store accepted],
 * 'final' => [res => counter], 'left_keys' => lock keys without a TTL,
 * 'permit_limit' => n].
 */
function rl_safety_check(array $records, array $run): array
{
    $windows = $run['windows'];
    $grace = $run['grace'];
    $sections = array_values(array_filter($records, fn($r) => isset($r['c1']) && !in_array($r['op'], ['timeout', 'error'], true)));
    $timeouts = array_values(array_filter($records, fn($r) => $r['op'] === 'timeout'));
    $c = array_fill_keys(['sections', 'exclusion', 'exclusion_excused', 'fence_dup', 'fence_order', 'refused',
                          'refused_unexplained', 'fence_excused', 'overlaps', 'overlaps_on_time', 'late_writes',
                          'shared_dirty', 'lost_updates', 'unlock_false', 'never_released', 'failed_calls',
                          'failed_quorum_up', 'stalled', 'waits_spanning_release', 'unwoken', 'overstated',
                          'starved', 'overtaken', 'releases_awaited', 'wakes'], 0);
    $c['sections'] = count($sections);
    foreach (['safety', 'other', 'sem'] as $res) {
        $on = rl_safety_on($sections, $res);
        if ($on === []) {
            continue;
        }
        [$ex, $not] = $res === 'sem' ? rl_safety_permits($on, $run['permit_limit'], $windows, $grace)
            : rl_safety_exclusion($on, $windows, $grace);
        $c['exclusion'] += $not;
        $c['exclusion_excused'] += $ex;
        [$dup, $order, $refused] = rl_safety_fencing($on, $res, $windows, $grace);
        $c['fence_dup'] += $dup[1];
        $c['fence_order'] += $order[1];
        $c['refused_unexplained'] += $refused[1];
        $c['fence_excused'] += $dup[0] + $order[0] + $refused[0];
        [$all, $onTime] = rl_safety_overlaps($on, $res, $windows, $grace);
        $c['overlaps'] += $all;
        $c['overlaps_on_time'] += $onTime;
        foreach ($on as $s) {
            $c['late_writes'] += rl_safety_late($s, $res);
            $c['refused'] += isset($s['data'][$res]['accepted']) && !$s['data'][$res]['accepted'];
        }
        $c['shared_dirty'] += rl_safety_shared_dirty($on, $res, $windows, $grace);
        if (isset($run['accepted'][$res])) {
            $c['lost_updates'] += $run['accepted'][$res] - $run['final'][$res];
        }
    }
    $c['unlock_false'] = count(array_filter($sections, fn($s) => !$s['unlocked']));
    $c['never_released'] = $run['left_keys'];
    foreach ($records as $r) {
        if ($r['op'] === 'error') {
            $c['failed_calls']++;
            $up = true;
            foreach ($windows as $f) {
                // a fault that hits some clients only may fail those clients' calls only
                $hit = !isset($f['clients']) || in_array($r['w'], $f['clients'], true);
                $up = $up && !($f['quorum'] && $hit && $r['at'] >= $f['start'] && $r['at'] <= $f['end'] + $grace);
            }
            $c['failed_quorum_up'] += $up;
        }
    }
    $c['stalled'] = rl_safety_stalled($sections, $windows, $run['from'], $run['to'], $grace);
    $waits = rl_safety_waits($sections, $timeouts, $windows, $grace);
    $releases = rl_safety_releases($sections);
    [$c['waits_spanning_release'], $c['unwoken']] = rl_safety_unwoken($waits, $releases);
    $c['overstated'] = rl_safety_overstated($sections);
    $c['starved'] = rl_safety_starved($waits, $releases);
    $c['overtaken'] = rl_safety_overtaken($waits, $releases);
    [$c['releases_awaited'], $c['wakes']] = rl_safety_wakes($sections, $waits);
    $c['failed_after_settle'] = rl_safety_failed_after_settled($records, $windows, $grace);
    $c['map_refreshes_extra'] = rl_safety_map_refreshes($records, $windows);
    return $c;
}

/**
 * What a run broke: the guarantees that held nowhere a window excused them.
 * $fifo: also waits overtaken (first in, first woken), which assumes every
 * process gets the CPU when it is runnable: the long schedule and the
 * mutants' check (REDISLOCK_SAFETY_JUDGE_FIFO=1), not CI's runs beside a
 * CPU load, where a waiter unscheduled before it queued is overtaken
 * without a fault of the library's.
 * Waits not woken (on one queue: RedLock's are not judged) count when more
 * than one in four (and more than one) of the waits that spanned a
 * release: a release that lands as the waiter's recheck begins is the
 * machine's race. A release that wakes nobody leaves every such wait
 * unwoken.
 */
function rl_safety_broken(array $c, bool $fifo = false): array
{
    $why = [];
    if ($fifo && ($c['overtaken'] ?? 0) > 0) {
        $why[] = "{$c['overtaken']} waits on one queue passed over by many releases";
    }
    foreach (['exclusion' => 'holders believed they held at once', 'fence_dup' => 'fencing numbers given twice',
              'fence_order' => 'fencing numbers out of real-time order',
              'refused_unexplained' => 'fenced writes refused without an overlap',
              'overlaps_on_time' => 'sections interleaved with neither past its validity',
              'shared_dirty' => 'shared holders saw a write', 'never_released' => 'lock keys left without a TTL',
              'failed_quorum_up' => 'calls failed while the quorum was up',
              'stalled' => 'seconds without a grant outside every fault',
              'overstated' => 'views claimed more validity than the TTL less the drift from the grant',
              'starved' => 'waits on one queue that many releases went by'] as $k => $what) {
        if ($c[$k] > 0) {
            $why[] = "{$c[$k]} $what";
        }
    }
    if ($c['lost_updates'] > 0 && $c['overlaps'] === 0) {
        $why[] = "{$c['lost_updates']} lost updates without an overlap";
    }
    if ($c['unwoken'] > 1 && $c['unwoken'] * 4 > $c['waits_spanning_release']) {
        $why[] = "{$c['unwoken']} of {$c['waits_spanning_release']} waits that spanned a release never woken";
    }
    if ($c['releases_awaited'] >= 20 && $c['wakes'] * 2 < $c['releases_awaited']) {
        $why[] = "{$c['releases_awaited']} releases with a waiter blocked woke {$c['wakes']} times";
    }
    if (($c['failed_after_settle'] ?? 0) > 0) {
        $why[] = "{$c['failed_after_settle']} calls failed after a failover or migration had settled";
    }
    if (($c['map_refreshes_extra'] ?? 0) > 0) {
        $why[] = "{$c['map_refreshes_extra']} slot maps fetched beyond two a move (redirected to and fro)";
    }
    if ($c['sections'] === 0) {
        $why[] = 'no critical section ran';
    }
    return $why;
}

/**
 * Whether a run showed what its windows predict: 'exclusion' shown by
 * holders that believed at once (or fencing broken by a forgotten counter),
 * 'writes' by a holder that wrote past its validity while another held
 * the lock: without fencing its write lands in the other's section (an
 * overlap), with fencing the store refuses it. A late write nobody else's
 * section met (the others had not run yet, on a busy machine) shows
 * neither: the run is not counted as showing it.
 */
function rl_safety_shown(array $c, array $predicted): array
{
    $missing = [];
    if (in_array('exclusion', $predicted, true) && $c['exclusion_excused'] + $c['fence_excused'] === 0) {
        $missing[] = 'exclusion';
    }
    $met = str_contains($c['mode'] ?? '', 'fencing') ? $c['refused'] : $c['overlaps'];
    if (in_array('writes', $predicted, true) && ($c['late_writes'] === 0 || $met === 0)) {
        $missing[] = 'writes';
    }
    return $missing;
}

/** Reads the JSON-lines history files. */
function rl_safety_read(array $files): array
{
    $records = [];
    foreach ($files as $f) {
        foreach (file($f, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
            $r = json_decode($line, true);
            if (is_array($r)) {
                $records[] = $r;
            }
        }
    }
    return $records;
}
