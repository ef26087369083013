# solved.gp: the first player's margin at the start under perfect play, by board (houses x seeds per house), a colour per grand-slam rule (docs/VARIANTS.md, "Solved small boards").
#
#   gnuplot -e "datafile='docs/img/solved.dat'; outfile='docs/img/solved.png'" scripts/solved.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height, title, rules (how many
# grand-slam rules the data has).
# Data (scripts/solved_boards.sh): "#" comments, a header line of quoted names, then one line
# per board: index, board ("4x3"), then per rule the margin in seeds (South, the first player,
# less North) with the own cycle rule's lower and upper bound and with the split rule (exact).
if (!exists("datafile")) datafile = "solved.dat"
if (!exists("outfile")) outfile = "solved.png"
if (!exists("width")) width = 1000
if (!exists("height")) height = 560
if (!exists("title")) title = "First player's margin under perfect play, by board (houses x seeds)"
if (!exists("rules")) rules = 3

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,11" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,10" background rgb "white"
}
set output outfile

array colour[8] = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]
set datafile missing "NaN"
set grid ytics lc rgb "#dddddd"
set border 3
set xtics nomirror
set ytics nomirror
set title title font ",14"
set xlabel "board: houses x seeds per house"
set ylabel "South's margin in seeds (South moves first)"
stats datafile using 1 nooutput
set xrange [STATS_min - 0.6 : STATS_max + 0.6]
set offsets 0, 0, 1, 1
set xzeroaxis lt 1 lc rgb "#888888"
set bmargin 6
set key outside bottom center horizontal box samplen 2
set label 1 "point: split cycle rule (exact); bar: own cycle rule or a ply limit (between the bounds)" at graph 0.5, graph 1.02 center font ",9"
# Columns of rule r (1-based): lower, upper, split.
lo(r) = 3 + 3*(r-1)
hi(r) = 4 + 3*(r-1)
sp(r) = 5 + 3*(r-1)
dx(r) = (r - (rules + 1) / 2.0) * 0.22
plot datafile using 1:(0):xtic(2) with points ps 0 notitle, \
     for [r=1:rules] datafile using ($1 + dx(r)):(column(sp(r))):(column(lo(r))):(column(hi(r))) \
       with yerrorbars lw 2 pt 7 ps 1.1 lc rgb colour[r] \
       title word("abapa grandslam-forbidden grandslam-all grandslam-win", r)
