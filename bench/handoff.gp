# Handoff latency (release to the next holder's acquire) against the number
# of waiters, median (solid) and p90 (dashed), log scales.
#   gnuplot -e "dat='handoff.dat'; out='handoff.png'" handoff.gp
set terminal pngcairo size 1000,540 font ",10"
set output out
set title "handoff latency: release to the next holder's acquire (log scales; lower is better)"
set logscale xy
set xrange [0.8:20]
set xtics ("1" 1, "4" 4, "16" 16)
set xlabel 'waiters'
set ylabel 'ms'
set grid ytics mytics
set key outside right top Left reverse
plot dat using 1:2 with linespoints lw 3 pt 7 lc rgb '#d62728' title 'redislock (woken at release), median', \
     ''  using 1:3 with linespoints lw 1 dt 2 pt 6 lc rgb '#d62728' title 'redislock, p90', \
     ''  using 1:4 with linespoints lw 2 pt 5 lc rgb '#9467bd' title 'polling 100 ms (Symfony), median', \
     ''  using 1:5 with linespoints lw 1 dt 2 pt 4 lc rgb '#9467bd' title 'polling 100 ms, p90', \
     ''  using 1:6 with linespoints lw 2 pt 9 lc rgb '#1f77b4' title 'polling 250 ms (Laravel), median', \
     ''  using 1:7 with linespoints lw 1 dt 2 pt 8 lc rgb '#1f77b4' title 'polling 250 ms, p90'
