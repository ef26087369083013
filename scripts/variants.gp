# variants.gp: grouped bars with 95% error bars: one group per metric (or player), one bar per rule variant (oware study).
#
# Restyle freely; `oware study` runs it as
#   gnuplot -e "datafile='variants-outcomes.dat'; outfile='variants-outcomes.png'; title='...'; ylabel='...'; width=800; height=500" variants.gp
# Variables: datafile, outfile (a name ending in .svg gives SVG, anything
# else PNG), width and height (pixels), title, ylabel.
# Data: "#" comments, one header line of quoted names, then one line per
# group:
#   "metric" "VARIANT1" "lo" "hi" "VARIANT2" "lo" "hi" ...
#   "South wins" 45.2 40.1 50.3 47.0 41.9 52.1 ...
# For each variant three columns: the value, the low and the high end of
# its 95% interval (the error bar). A metric that does not apply to a
# variant is written 0 0 0 (no bar).
if (!exists("datafile")) datafile = "variants-outcomes.dat"
if (!exists("outfile")) outfile = "variants-outcomes.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Variant study"
if (!exists("ylabel")) ylabel = ""

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set datafile columnheaders
stats datafile using 2 nooutput
ngroups = STATS_records
nvariants = int((STATS_columns - 1) / 3)
# The y range: from the lowest low end (or 0) to the highest high end, with
# room above for the key.
stats datafile using 3 nooutput
ymin = STATS_min
stats datafile using 4 nooutput
ymax = STATS_max
do for [v=1:nvariants-1] {
  stats datafile using (column(3 + 3*v)) nooutput
  if (STATS_min < ymin) { ymin = STATS_min }
  stats datafile using (column(4 + 3*v)) nooutput
  if (STATS_max > ymax) { ymax = STATS_max }
}
if (ymin > 0) { ymin = 0 }
if (ymax < 0) { ymax = 0 }
span = ymax - ymin
if (span <= 0) { span = 1 }
set yrange [ymin - (ymin < 0 ? 0.05 * span : 0) : ymax + 0.22 * span]

set xrange [-0.6 : ngroups - 0.4]
set title title font ",14"
set ylabel ylabel
set grid ytics lc rgb "#dddddd"
set border 3
set xtics nomirror scale 0
set ytics nomirror
set xzeroaxis lt -1 lw 1
if (ngroups > 5) { set xtics rotate by 20 right }
set key top center horizontal samplen 1.5 width 1 maxrows 2
set style data histograms
set style histogram errorbars gap 1.5 lw 1.2
set style fill solid 0.85 border rgb "#444444"
set boxwidth 0.9 relative
set errorbars lc rgb "#222222"
array colour[8] = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]
plot for [v=0:nvariants-1] datafile using (column(2 + 3*v)):(column(3 + 3*v)):(column(4 + 3*v)):xtic(1) \
       lc rgb colour[v % 8 + 1] title columnheader(2 + 3*v)
