# elo.gp: the Elo ladder of a run: each player's rating with its 95% interval (oware chart --kind elo).
#
# Restyle freely; `oware chart` runs it as
#   gnuplot -e "datafile='elo.dat'; outfile='elo.png'; width=800; height=500; title='...'; metric='elo'" elo.gp
# Variables: datafile, outfile (a name ending in .svg gives SVG, anything
# else PNG), width and height (pixels), title, metric ('elo': Elo from a
# Bradley-Terry fit; 'score': score % with Wilson 95% intervals, used when no
# Elo is available), scale (what the Elo is relative to: "greedy = 0" when a
# player is anchored, as `oware rate --anchor greedy=0`; default "the field's
# mean").
# Data (elo.dat): "#" comments, then one line per player,
# weakest first:  rank "player" value low high games bound
# (bound: 1 when the player only won or only lost, so that his Elo is held
# finite by the fit's prior and is a bound rather than an estimate).
if (!exists("datafile")) datafile = "elo.dat"
if (!exists("outfile")) outfile = "elo.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Elo ladder"
if (!exists("metric")) metric = "elo"
if (!exists("scale")) scale = "the field's mean"

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set title title font ",14"
if (metric eq "score") {
  set xlabel "score (%), with 95% Wilson interval"
  set xrange [0:118]  # room on the right for the value labels
  set xtics 0, 20, 100
} else {
  set xlabel "Elo (relative to ".scale."), with 95% interval"
}
set ylabel "player (games), strongest at the top"
set grid xtics lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror scale 0
set offsets 0, 0, 0.5, 0.5
set key bottom right box opaque
set style line 1 lc rgb "#1f5fa8" lw 2 pt 7 ps 1.3

stats datafile using 4:5 nooutput
n = STATS_records
if (metric ne "score") {
  # room on the right for the value labels
  span = STATS_max_y - STATS_min_x
  if (span <= 0) { span = 100 }
  set xrange [STATS_min_x - 0.05*span : STATS_max_y + 0.25*span]
}
set yrange [-0.5:n-0.5]
label_fmt = (metric eq "score") ? "%.1f%%" : "%+.0f"
plot datafile using 3:0:4:5:ytic(sprintf("%s (%d)", strcol(2), int($6))) with xerrorbars ls 1 \
       title (metric eq "score" ? "score %, 95% interval" : "Elo, 95% interval"), \
     "" using 5:0:(sprintf(label_fmt."%s", $3, $7 != 0 ? " (bound)" : "")) \
       with labels left offset 1,0 font ",10" notitle
