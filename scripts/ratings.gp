# ratings.gp: ratings over the course of a run: each player's stored Elo against the games played so far (oware chart --kind ratings).
#
# Restyle freely; `oware chart` runs it as
#   gnuplot -e "datafile='ratings.dat'; outfile='ratings.png'; width=800; height=500; title='...'" ratings.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height
# (pixels), title, scale (what every fit's Elo is relative to: "greedy = 0"
# when a player is anchored; default "the field's mean").
# Data (ratings.dat): "#" comments, then one block per player, blocks
# separated by two blank lines; each block is a header line of quoted names
# ("games" "PLAYER" "low" "high") and one line per stored rating fit:
#   games_total elo low high
# games_total: games of the run in that fit; elo and its 95% interval.
if (!exists("datafile")) datafile = "ratings.dat"
if (!exists("outfile")) outfile = "ratings.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Ratings over the run"
if (!exists("scale")) scale = "the field's mean"

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set datafile columnheaders
stats datafile using 1 nooutput
nplayers = STATS_blocks
single = (STATS_min == STATS_max)  # one fit so far: error bars instead of bands
if (single) { set xrange [STATS_min - 1 : STATS_max + 1]; set xtics STATS_min, 1, STATS_min }

set title title font ",14"
set xlabel "games played in the run"
set ylabel "Elo (relative to ".scale."), with its 95% interval"
set grid xtics ytics lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror
set key outside right top Left reverse title "player" left
set style fill transparent solid 0.15 noborder
if (single) {
  set offsets 0, 0, graph 0.05, graph 0.05
  plot for [i=0:nplayers-1] datafile index i using ($1 + (i - (nplayers - 1) / 2.0) * 0.6 / nplayers):2:3:4 \
         with yerrorbars lc i+1 lw 2 pt 7 title columnheader(2)
} else {
  plot for [i=0:nplayers-1] datafile index i using 1:3:4 with filledcurves lc i+1 notitle, \
       for [i=0:nplayers-1] datafile index i using 1:2 with linespoints lc i+1 lw 2 pt 7 ps 0.8 \
         title columnheader(2)
}
