# analyse.gp: endgame accuracy: mean seeds thrown away per decided move against the seeds on the board, a line per player (oware analyse --chart, the report's "Endgame accuracy").
#
# Restyle freely; `oware analyse --run R --chart STEM` runs it as
#   gnuplot -e "datafile='STEM.dat'; outfile='STEM.png'; title='...'; width=800; height=500; players=3" analyse.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height, title,
# players (how many player columns the data has).
# Data: "#" comments, a header line of quoted names ("seeds" then one per player),
# then one line per seed count: seeds, then each player's mean seeds lost per
# decided move with that many seeds on the board (NaN: no decided move there).
if (!exists("datafile")) datafile = "analyse.dat"
if (!exists("outfile")) outfile = "analyse.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Endgame accuracy"
if (!exists("players")) players = 1

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set title title font ",14"
set xlabel "seeds on the board"
set ylabel "seeds lost per move (mean, against perfect play)"
set grid lc rgb "#dddddd"
set border 3
set xtics nomirror 1
set ytics nomirror
set yrange [0:*]
set key top left box opaque
set datafile missing "NaN"
set offsets graph 0.02, graph 0.02, graph 0.05, 0
plot for [i=2:players+1] datafile using 1:i with linespoints lw 2 pt 7 ps 0.8 title columnhead(i)
