<?php
/*
 * The history checker: what the workers and the store recorded, counted.
 *
 * A worker's record (one JSON object per line of its history file) is one
 * of:
 *   {"w":W,"op":"section","fence":F|null,"t0":us,"t1":us,"read":V,"accepted":bool,"unlocked":bool}
 *       a critical section: lock() won, the store read at t0 (the store's
 *       clock, Redis TIME, in microseconds), the write at t1, then unlock()
 *       said unlocked (false: the lock was no longer ours by then);
 *   {"w":W,"op":"error","at":us,"code":C,"what":"lock"|"unlock"|...}
 *       a call that threw (at: the worker's clock, the same machine's);
 *   {"w":W,"op":"timeout","at":us}
 *       lock() gave up its wait (not a failure: another held it);
 *   {"w":W,"op":"expired","at":us}
 *       fenced: the lock had no fencing number any more when asked (its
 *       validity ran out first), so the worker did not write.
 * The store's write log (in write order) is one entry per write attempt:
 *   [fence|null, accepted 0|1].
 * Faults are [start_us, end_us, affects_quorum] on the worker clock; a call
 * failing inside a fault, or within $grace_us after it, is expected.
 */

/** Sections that another section began inside (the store's clock): each
 * is a holder that went on after the lock was given to someone else. */
function rl_safety_overlaps(array $sections): int
{
    usort($sections, fn($a, $b) => $a['t0'] <=> $b['t0']);
    $overlapped = 0;
    $n = count($sections);
    for ($i = 0; $i < $n; $i++) {
        // sorted by start: only the next section can be the first to begin inside this one
        $overlapped += $i + 1 < $n && $sections[$i + 1]['t0'] < $sections[$i]['t1'];
    }
    return $overlapped;
}

/**
 * Writes the store accepted that were stale: with fencing numbers, a number
 * not above the largest accepted before it (the store's own check, counted
 * again here from its log so a broken check or a duplicated number shows);
 * without, a write from a section that another section had begun inside
 * (the lock was held twice when it wrote).
 */
function rl_safety_stale_accepted(array $sections, array $writes): int
{
    $fenced = $writes !== [] && $writes[0][0] !== null;
    if ($fenced) {
        $max = PHP_INT_MIN;
        $stale = 0;
        foreach ($writes as [$fence, $accepted]) {
            if ($accepted) {
                $stale += $fence <= $max;
                $max = max($max, $fence);
            }
        }
        return $stale;
    }
    $stale = 0;
    foreach ($sections as $i => $s) {
        if (!$s['accepted']) {
            continue;
        }
        foreach ($sections as $j => $o) {
            if ($i !== $j && $o['t0'] > $s['t0'] && $o['t0'] < $s['t1']) {
                $stale++;
                break;
            }
        }
    }
    return $stale;
}

/** The counts of one run. $final: the store's counter at the end. */
function rl_safety_check(array $records, array $writes, int $final, array $faults, int $grace_us, int $left_keys): array
{
    $sections = array_values(array_filter($records, fn($r) => $r['op'] === 'section'));
    $accepted = count(array_filter($sections, fn($s) => $s['accepted']));
    $failed = $failedUp = 0;
    foreach ($records as $r) {
        if ($r['op'] !== 'error') {
            continue;
        }
        $failed++;
        $expected = false;
        foreach ($faults as [$start, $end, $affectsQuorum]) {
            if ($affectsQuorum && $r['at'] >= $start && $r['at'] <= $end + $grace_us) {
                $expected = true;
            }
        }
        $failedUp += !$expected;
    }
    return [
        'cycles' => count($sections),
        'overlaps' => rl_safety_overlaps($sections),
        'stale_accepted' => rl_safety_stale_accepted($sections, $writes),
        'stale_refused' => count(array_filter($sections, fn($s) => !$s['accepted'])),
        'lost_updates' => $accepted - $final,
        'unlock_false' => count(array_filter($sections, fn($s) => !$s['unlocked'])),
        'never_released' => $left_keys,
        'failed_calls' => $failed,
        'failed_quorum_up' => $failedUp,
    ];
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
