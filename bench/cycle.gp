# Lock + unlock cycle time against node count, one panel per added delay
# (one gnuplot block per delay in the .dat, in the order of `delays`), a line
# per implementation.
#   gnuplot -e "dat='cycle.dat'; out='cycle.png'; delays='0 0.5 2'" cycle.gp
set terminal pngcairo size 1500,560 font ",10"
set output out
set datafile missing '-'
set multiplot layout 1, words(delays) title "lock + unlock cycle time (ms, log scale; lower is better)" font ",13"
set logscale y
set xrange [0.6:5.4]
set xtics ("1" 1, "3" 3, "5" 5)
set xlabel 'nodes'
set ylabel 'ms per cycle'
set grid ytics mytics
set key bottom right opaque box
do for [i = 1:words(delays)] {
    d = word(delays, i)
    set title (d eq '0' ? 'direct, loopback' : sprintf('through a proxy adding %s ms each way', d))
    # room below the fastest line for the key (first panel only: one colour per implementation)
    stats dat index (i - 1) using 2 nooutput
    lo = STATS_min
    stats dat index (i - 1) using 3 nooutput
    lo = (STATS_min < lo ? STATS_min : lo) / 1000
    set yrange [lo / 12 : *]
    if (i > 1) { unset key }
    plot dat index (i - 1) using 1:($3 / 1000) with linespoints lw 3 pt 7 lc rgb '#d62728' title 'redislock (RedisLock / RedLock)', \
         ''  index (i - 1) using 1:($4 / 1000) with linespoints lw 2 pt 5 lc rgb '#1f77b4' title 'userland phpredis, nodes in turn', \
         ''  index (i - 1) using 1:($5 / 1000) with linespoints lw 2 pt 9 lc rgb '#2ca02c' title 'predis, nodes in turn', \
         ''  index (i - 1) using 1:($6 / 1000) with linespoints lw 2 pt 11 lc rgb '#9467bd' title 'symfony/lock (Combined+Consensus)', \
         ''  index (i - 1) using 1:($2 / 1000) with points pt 3 ps 2 lc rgb 'black' title '2 x PING (floor)'
}
unset multiplot
