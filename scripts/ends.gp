# ends.gp: how the games of a run end: stacked bars of end reasons per variant or pairing (oware chart --kind ends).
#
# Restyle freely; `oware chart` runs it as
#   gnuplot -e "datafile='ends.dat'; outfile='ends.png'; width=800; height=500; title='...'" ends.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height
# (pixels), title.
# Data (ends.dat): "#" comments, one header line of quoted column names,
# then one line per group (a variant, or a pairing when the run has one
# variant):
#   "group" games majority no-move repetition ply-limit forfeit
#           [adjudicated-egdb] [adjudicated-draw] [adjudicated-resign] [other]
# games: the group's games; the next columns: the share of them that ended
# that way, in % (forfeit: every forfeit-* reason together; each
# adjudicated-* column, present only when some game of the run was ended by
# that rule of --adjudicate; other, present only when some game has another
# end reason: the rest).
if (!exists("datafile")) datafile = "ends.dat"
if (!exists("outfile")) outfile = "ends.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "End reasons"

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set datafile columnheaders
stats datafile using 2 nooutput
ngroups = STATS_records
ncols = STATS_columns

set title title font ",14"
set xlabel "share of the group's games (%)"
set ylabel "group (number of games)"
set xrange [0:100]
set xtics 0, 20, 100 nomirror
set ytics nomirror scale 0
set yrange [ngroups - 0.5 : -0.5]  # the first group at the top
set grid xtics lc rgb "#dddddd"
set border 3
set style fill solid 0.85 border rgb "white"
set key at screen 0.5, screen 0.01 center bottom horizontal Left reverse samplen 2 width 1 title ""
set bmargin (ncols > 8 ? 7 : 5)  # room for the key under the x axis (a third row with adjudications)
# one colour per column, in the order of the columns
array colour[9] = ["#4c72b0", "#55a868", "#dd8452", "#8172b3", "#c44e52", "#937860", "#64b5cd", "#da8bc3", "#7f7f7f"]
# Horizontal stacked bars: reason i spans from the sum of the reasons before
# it to that sum plus its own share.
left(i) = (i > 3) ? sum [k=3:i-1] column(k) : 0
plot for [i=3:ncols] datafile \
       using (left(i) + column(i) / 2):0:(left(i)):(left(i) + column(i)):($0 - 0.35):($0 + 0.35):ytic(sprintf("%s (%d)", strcol(1), column(2))) \
       with boxxyerror lc rgb colour[(i-3)%9+1] title columnheader(i)
