<?php
/* The p-quantile of $xs, interpolated between the two nearest samples:
 * the benches' medians and interquartile ranges. */
function quantile(array $xs, float $p): float
{
    sort($xs);
    $at = $p * (count($xs) - 1);
    $lo = (int)floor($at);
    $hi = min($lo + 1, count($xs) - 1);
    return $xs[$lo] + ($xs[$hi] - $xs[$lo]) * ($at - $lo);
}
