# matrix.gp: the score matrix of a run: a heat map of each pairing's score % (oware chart --kind matrix).
#
# Restyle freely; `oware chart` runs it as
#   gnuplot -e "datafile='matrix.dat'; outfile='matrix.png'; width=800; height=500; title='...'" matrix.gp
# Variables: datafile, outfile (.svg gives SVG, else PNG), width, height
# (pixels), title.
# Data (matrix.dat): "#" comments, then a matrix with a header row and a
# header column: the first row names the opponents (columns), each next row
# starts with a player's name and gives his score % against each opponent
# (points / games x 100), NaN where the two did not meet (and on the diagonal).
# Rows and columns are in standings order.
if (!exists("datafile")) datafile = "matrix.dat"
if (!exists("outfile")) outfile = "matrix.png"
if (!exists("width")) width = 800
if (!exists("height")) height = 500
if (!exists("title")) title = "Score matrix"

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq ".svg") {
  set terminal svg size width,height fixed noenhanced font "Sans,12" background rgb "white"
} else {
  set terminal pngcairo size width,height noenhanced font "Sans,11" background rgb "white"
}
set output outfile

set title title font ",14"
set xlabel "opponent"
set ylabel "player"
set cblabel "score of the row player (%)"
set cbrange [0:100]
set cbtics 25
# red: the row player lost; white: even; blue: the row player won
set palette defined (0 "#c0392b", 50 "#f7f7f7", 100 "#2166ac")
set xtics rotate by -30 left nomirror scale 0
set ytics nomirror scale 0
set yrange [] reverse
set border 0
set key off
set datafile missing "NaN"
# grey where two players did not meet (and on the diagonal)
set object 1 rectangle from graph 0,0 to graph 1,1 behind fillcolor rgb "#d9d9d9" fillstyle solid noborder

plot datafile matrix rowheaders columnheaders using 1:2:3 with image pixels, \
     "" matrix rowheaders columnheaders \
       using 1:2:($3 == $3 ? sprintf("%.0f", $3) : ""):(abs($3 - 50) > 30 ? 0xffffff : 0x000000) \
       with labels textcolor rgb variable font ",10"
