# tuning.gp: a tuning run: each weight against the iteration, and the Elo of the validation checkpoints (oware chart --kind tuning).
#
# Restyle freely; `oware chart` runs it as
#   gnuplot -e "datafile='tuning.dat'; outfile='tuning.png'; width=800; height=500; title='...'" tuning.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height
# (pixels), title, mode ('change', the default: each weight minus its value
# at the first iteration, so that weights of different sizes share the
# axis; 'value': the weights themselves), what (the curves' name: 'weight' by
# default; a network's training draws its losses, what='loss'; a loop of
# generations its candidates' and best's Elo, what='Elo').
# Data (tuning.dat, written by plot_tuning_write in report/plot.c): "#"
# comments, one header line of quoted column names
#   "iteration" "elo" "elo_lo" "elo_hi" "WEIGHT1" "WEIGHT2" ...
# then one line per iteration:
#   iteration elo elo_lo elo_hi w1 w2 ...
# elo, elo_lo, elo_hi: the Elo and 95% interval of the validation checkpoint
# at that iteration, NaN when it has none; w1 w2 ...: the weights after it.
if (!exists("datafile")) datafile = "tuning.dat"
if (!exists("outfile")) outfile = "tuning.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Tuning"
if (!exists("mode")) mode = "change"
if (!exists("what")) what = "weight"

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set datafile columnheaders
stats datafile using 1 nooutput
ncols = STATS_columns
pad = (STATS_max > STATS_min) ? 0.02 * (STATS_max - STATS_min) : 1
set xrange [STATS_min - pad : STATS_max + pad]
stats datafile using (strcol(2) eq "NaN" ? 0 : 1) nooutput
ncheckpoints = STATS_sum

set grid xtics ytics lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror
set key outside right top Left reverse

set multiplot title title font ",14"
# the weights: the upper part (all of it when there is no checkpoint)
set lmargin at screen 0.10
set rmargin at screen 0.74
set tmargin at screen 0.90
set bmargin at screen (ncheckpoints > 0 ? 0.42 : 0.12)
set ylabel (mode eq "value" ? what." value" : what." change")
if (ncheckpoints > 0) { set format x ""; unset xlabel } else { set xlabel "iteration" }
set key title what left
# the value of each weight at the first iteration
array first[ncols]
do for [i=5:ncols] { stats [*:*][*:*] datafile using i every ::0::0 nooutput; first[i] = STATS_min }
# eight colours, then the same colours dashed
plot for [i=5:ncols] datafile using 1:(mode eq "value" ? column(i) : column(i) - first[i]) \
       with lines lw 2 lc ((i-5)%8+1) dt 1+(i-5)/8 title columnheader(i)

if (ncheckpoints > 0) {
  set tmargin at screen 0.36
  set bmargin at screen 0.12
  set format x "% h"
  set xlabel "iteration"
  set ylabel "checkpoint Elo"
  set key inside top left opaque box title ""
  stats [*:*][*:*] datafile using 3:4 nooutput
  # about four tics on the small panel: a step of 1, 2 or 5 times a power of ten
  r = (STATS_max_y > STATS_min_x) ? (STATS_max_y - STATS_min_x) / 4.0 : 1
  p10 = 10 ** floor(log10(r))
  m = r / p10
  step = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p10
  set ytics step
  plot datafile using 1:2:3:4 with yerrorlines lw 2 pt 7 lc rgb "#c44e52" \
    title "Elo, 95% interval"
}
unset multiplot
