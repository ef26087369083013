# calibrate.gp: a difficulty calibration: measured Elo against the knob, with 95% intervals, the monotone fit and the levels found (oware calibrate --chart).
#
# Restyle freely; `oware calibrate --chart STEM` runs it as
#   gnuplot -e "datafile='STEM.dat'; outfile='STEM.png'; title='...'; knob='noise'; logx=0; width=800; height=500" calibrate.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height,
# title, knob (the option's name, for the x label), logx (1: log x axis).
# Data: two blocks separated by two blank lines.
#   block 0, the measured knob values:  knob elo lo hi fitted
#   block 1, the levels:                "name" knob target search_elo verified_elo lo hi
# (search_elo: the level's measurement in the search; verified_elo, lo, hi:
# its Elo and 95% interval in the verification round robin)
if (!exists("datafile")) datafile = "calibration.dat"
if (!exists("outfile")) outfile = "calibration.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Calibration"
if (!exists("knob")) knob = "knob"
if (!exists("logx")) logx = 0

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set title title font ",14"
set xlabel knob
set ylabel "Elo (95% interval against the fixed reference pool)"
set grid lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror
set key top left box opaque
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
if (logx) { set logscale x }
plot datafile index 0 using 1:2:3:4 with yerrorbars lc rgb "#1f5fa8" pt 7 ps 1.0 title "measured", \
     "" index 0 using 1:5 with lines lc rgb "#1f5fa8" dt 2 title "monotone fit", \
     "" index 1 using 2:3 with points lc rgb "#c44e52" pt 5 ps 1.4 title "level: target", \
     "" index 1 using 2:5:6:7 with yerrorbars lc rgb "#2ca02c" pt 9 ps 1.4 title "level: verified (95%)", \
     "" index 1 using 2:3:1 with labels offset 0,1.2 tc rgb "#c44e52" notitle
