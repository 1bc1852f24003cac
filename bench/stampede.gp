# The stampede benchmark's chart (data from bench/stampede.php): per lock
# variant against K (requests at once for one cold key), p99 latency (left)
# and Redis commands per request (right: solid, all that Redis ran, scripts'
# own commands included; dashed, those the clients sent).
#   gnuplot -e "dat='stampede.dat'; out='stampede.svg'; rebuild=50" stampede.gp
if (!exists("rebuild")) rebuild = 50
set terminal svg size 1200,520 dynamic font "sans,11" background "white"
set output out
stats dat using 1 nooutput
blocks = STATS_blocks
array colors[8] = ['#7f7f7f', '#17becf', '#bcbd22', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#1f77b4']
set multiplot layout 1,2 title sprintf("cache stampede under php-fpm: K requests at once, one cold key, rebuild %g ms (lower is better)", rebuild)
set logscale x 2
set xrange [6:170]
set xtics ("8" 8, "32" 32, "128" 128)
set xlabel 'K (requests at once)'
set grid ytics mytics
set key top left Left reverse font ",9"

set title 'p99 latency'
set logscale y
set ylabel 'ms'
set yrange [5:*]
set arrow 1 from graph 0, first rebuild to graph 1, first rebuild nohead dt 2 lc rgb '#000000'
set label 1 sprintf('rebuild time, %g ms', rebuild) at graph 0.99, first rebuild * 1.06 right font ",9"
plot for [i=0:blocks-1] dat index i using 1:2 with linespoints lw 2 pt 7 ps 0.6 lc rgb colors[i % 8 + 1] title columnheader(2)
unset arrow 1
unset label 1

set title 'Redis commands per request (solid: all, incl. inside scripts; dashed: sent by clients)'
unset logscale y
set yrange [0:*]
set ylabel 'commands / request'
plot for [i=0:blocks-1] dat index i using 1:5 with linespoints lw 2 pt 7 ps 0.6 lc rgb colors[i % 8 + 1] title columnheader(2), \
     for [i=0:blocks-1] dat index i using 1:6 with linespoints lw 1 dt 2 pt 6 ps 0.6 lc rgb colors[i % 8 + 1] notitle
unset multiplot
