# egdb.gp: endgame tables by seeds on the board: won, drawn, lost, cycle-sensitive and open shares for the side to move, a line per variant (oware egdb stats --chart).
#
# Restyle freely; `oware egdb stats --variant V ... --chart STEM` runs it as
#   gnuplot -e "datafile='STEM.dat'; outfile='STEM.png'; title='...'; width=1000; height=720; variants=4" egdb.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height, title,
# variants (how many variants the data has).
# Data: "#" comments, a header line of quoted names ("seeds", then each
# variant's name five times), then one line per seed count: seeds, then per
# variant five shares in %: won, drawn, lost, open (the result depends on how
# endless play is scored), cycle-sensitive; NaN where the variant has no table.
if (!exists("datafile")) datafile = "egdb.dat"
if (!exists("outfile")) outfile = "egdb.png"
if (!exists("width")) width = 1000
if (!exists("height")) height = 720
if (!exists("title")) title = "Endgame tables"
if (!exists("variants")) variants = 1

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,11" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,10" background rgb "white"
}
set output outfile

array colour[8] = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]
set datafile missing "NaN"
set grid lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror
set yrange [0:*<100]
set offsets 0, 0, graph 0.05, 0
stats datafile using 1 nooutput
set xrange [STATS_min - 0.5 : STATS_max + 0.5]
xstep = STATS_max - STATS_min > 24 ? 2 : 1
set xtics xstep

# One key for the four panels, at the foot of the page.
set multiplot layout 2,2 title title font ",14" margins 0.07, 0.98, 0.13, 0.91 spacing 0.07, 0.11
set key at screen 0.5, screen 0.015 center bottom horizontal box samplen 2
# Column of measure m (0 won, 1 drawn, 2 lost, 3 open, 4 cycle-sensitive) of variant v (1-based).
col(v, m) = 2 + 5*(v-1) + m

set title "won by the side to move"
set ylabel "% of positions"
plot for [v=1:variants] datafile using 1:col(v,0) with linespoints lw 2 pt 7 ps 0.6 \
     lc rgb colour[(v-1) % 8 + 1] title columnhead(col(v,0))
unset key
set title "drawn (with an odd count only by a split of endless play)"
set ylabel ""
plot for [v=1:variants] datafile using 1:col(v,1) with linespoints lw 2 pt 7 ps 0.6 \
     lc rgb colour[(v-1) % 8 + 1] title columnhead(col(v,1))
set title "lost by the side to move"
set xlabel "seeds on the board"
set ylabel "% of positions"
plot for [v=1:variants] datafile using 1:col(v,2) with linespoints lw 2 pt 7 ps 0.6 \
     lc rgb colour[(v-1) % 8 + 1] title columnhead(col(v,2))
set title "cycle-sensitive (solid); result open, up to the cycle rule (dashed)"
set ylabel ""
plot for [v=1:variants] datafile using 1:col(v,4) with linespoints lw 2 pt 7 ps 0.6 \
     lc rgb colour[(v-1) % 8 + 1] title columnhead(col(v,4)), \
     for [v=1:variants] datafile using 1:col(v,3) with lines lw 1.5 dt 2 \
     lc rgb colour[(v-1) % 8 + 1] notitle
unset multiplot
