--TEST--
Safety suite, CI's short schedule (seed 7), fault sentinel-failover, the three Sentinel modes: no row broken; with min_replicas no holder believes it holds while another does; calls fail only while a failover lasts
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; rl_skip_unless_redis_binary(); ?>
--EXTENSIONS--
redislock
--FILE--
<?php
require __DIR__ . '/../redislock_test.inc';
require __DIR__ . '/ci.inc';

$runs = rl_safety_ci('sentinel-failover', 6.0);
$of = fn(string $mode, string $key) => array_sum(array_map(fn($r) => $r["mode"] === $mode ? $r[$key] : 0, $runs));
echo "with min_replicas, holders that believed at once: ", $of("sentinel+min_replicas", "exclusion") + $of("sentinel+min_replicas", "exclusion_excused"), "; overlaps: ", $of("sentinel+min_replicas", "overlaps"), "\n";
?>
--EXPECT--
exit: 0; a row for every mode with the fault: yes
rows broken: none
rows predicted to break something: 2
with min_replicas, holders that believed at once: 0; overlaps: 0
