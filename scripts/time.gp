# time.gp: time used per move in a run's games: each player's mean time at each of its move numbers (oware chart --kind time).
#
# Restyle freely; `oware chart` runs it as
#   gnuplot -e "datafile='time.dat'; outfile='time.png'; width=800; height=500; title='...'" time.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height
# (pixels), title.
# Data (time.dat): "#" comments, one header line of quoted column names
# ("move", then one per player), then one line per move number:
#   move ms_player1 ms_player2 ...
# ms: the player's mean time (ms) on its clock for its move of that number
# over the run's games with move records; "?" where it has none.
if (!exists("datafile")) datafile = "time.dat"
if (!exists("outfile")) outfile = "time.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Time per move"

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set datafile columnheaders
set datafile missing "?"
stats datafile using 1 nooutput
ncols = STATS_columns

set title title font ",14"
set xlabel "the player's move number in the game"
set ylabel "mean time per move (ms)"
set grid ytics lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror
set yrange [0:*]
set key outside right top Left reverse noopaque nobox title "player" left
plot for [i=2:ncols] datafile using 1:i with linespoints lw 2 pt 7 ps 0.5 title columnheader(i)
