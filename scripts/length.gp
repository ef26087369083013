# length.gp: game lengths of a run: a histogram of plies per variant or per pairing (oware chart --kind length).
#
# Restyle freely; `oware chart` runs it as
#   gnuplot -e "datafile='length.dat'; outfile='length.png'; width=800; height=500; title='...'" length.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height
# (pixels), title.
# Data (length.dat): "#" comments, one header line of quoted column names,
# then one line per bin of plies:
#   center width pct_group1 pct_group2 ...
# center and width of the bin in plies; pct: the share of the group's games
# (a variant, a pairing, or all games) whose length falls in the bin, in %.
if (!exists("datafile")) datafile = "length.dat"
if (!exists("outfile")) outfile = "length.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Game length"

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set datafile columnheaders
stats datafile using 1 nooutput
ncols = STATS_columns
ngroups = ncols - 2

set title title font ",14"
set xlabel "game length (plies)"
set ylabel "share of the group's games (%)"
set grid ytics lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror
set yrange [0:*]
set key top right box opaque
if (ngroups == 1) {
  set style fill solid 0.6 border rgb "#1f5fa8"
  plot datafile using 1:3:2 with boxes lc rgb "#1f5fa8" title columnheader(3)
} else {
  set key outside right top Left reverse noopaque nobox title "games of" left
  plot for [i=3:ncols] datafile using 1:i with histeps lw 2 title columnheader(i)
}
