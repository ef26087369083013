#!/usr/bin/env bash
# test_book.sh: end to end: `oware book build|show`, a tiny book (2 plies, depth 4), the same file on 1 and 2 threads, minimax:book=, OwnBook in `oware uci`, bad book files.
set -u
oware=$1
fails=0
source "$(dirname "$0")/check.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
start=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S

# fails_with REGEX COMMAND...: the command fails (exit 1 or 2) and says REGEX on stderr.
fails_with() {
  local re=$1 rc
  shift
  "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" -ne 0 ] && grep -qE -- "$re" "$tmp/err" || { echo "  rc $rc, stderr: $(head -c 300 "$tmp/err")"; return 1; }
}

check "build a tiny book (2 plies, depth 4)" \
  bash -c "'$oware' book build --plies 2 --depth 4 --out '$tmp/b1.bin' | grep -q '7 positions of the first 2 plies, depth 4'"
check "the same book on 2 threads" bash -c "'$oware' book build --plies 2 --depth 4 --threads 2 --out '$tmp/b2.bin' --quiet >/dev/null"
check "... is the same file" cmp "$tmp/b1.bin" "$tmp/b2.bin"
check "a deeper book (4 plies, depth 5) is the same on 1 and 2 threads" bash -c "
  '$oware' book build --plies 4 --depth 5 --out '$tmp/c1.bin' >/dev/null &&
  '$oware' book build --plies 4 --depth 5 --threads 2 --out '$tmp/c2.bin' >/dev/null && cmp '$tmp/c1.bin' '$tmp/c2.bin'"
check "a node budget gives another book" bash -c "
  '$oware' book build --plies 2 --nodes 3000 --out '$tmp/n.bin' >/dev/null && ! cmp -s '$tmp/b1.bin' '$tmp/n.bin'"
show=$("$oware" book show "$tmp/b1.bin" $start)
check "book show prints the header" grep -qx $'variant abapa\nplies 2\ndepth 4\nnodes 0\npositions 7' <<<"$(head -5 <<<"$show")"
bm=$(sed -n 's/^move \([A-F]\) score -\{0,1\}[0-9]*$/\1/p' <<<"$show")
check "book show gives the book's move at the start" test -n "$bm"
after2=$("$oware" replay Ca | sed -n 's/^position //p')
check "a position after 2 plies is not in the book" \
  bash -c "'$oware' book show '$tmp/b1.bin' $after2 | grep -qx 'not in the book'"

# What minimax plays at the start at depth 1 without the book, and with it (eval=net2: its
# depth-1 move is not the book's, which the default search at depth 4 chose; net3's is).
uci_go() { # uci_go SPEC [ARGS...]: the lines of `position startpos; go depth 1`
  local spec=$1
  shift
  printf 'position startpos\ngo depth 1\nisready\n' | "$oware" uci --player "$spec" "$@"
}
plain=$(uci_go minimax:depth=1,eval=net2)
own=$(sed -n 's/^bestmove //p' <<<"$plain")
check "(the test means something: depth 1 alone plays another move than the book)" test "$own" != "$bm"
with=$(uci_go "minimax:depth=1,eval=net2,book=$tmp/b1.bin")
check "minimax:book= plays the book's move" grep -qx "bestmove $bm" <<<"$with"
check "... reported as the book's search (depth 4, no node)" grep -qE "^info depth 4 seldepth 0 score cp -?[0-9]+ nodes 0 .* pv $bm\$" <<<"$with"
check "the book is off by default (minimax searches)" grep -q '^info depth 1 seldepth 1 ' <<<"$plain"
check "a game of oware match opens with the book's move" bash -c "
  '$oware' match --south 'minimax:depth=1,eval=net2,book=$tmp/b1.bin' --north minimax:depth=1,eval=net2 --games 1 --ogn '$tmp/g.ogn' >/dev/null &&
  grep -qE '^$bm [a-f] ' '$tmp/g.ogn'"
# A book of another variant is left unused.
"$oware" book build --variant auale --plies 1 --depth 4 --out "$tmp/auale.bin" >/dev/null
check "a book of another variant is not used" \
  bash -c "uci() { printf 'position startpos\ngo depth 1\nisready\n' | '$oware' uci --player \"\$1\"; }; uci 'minimax:depth=1,eval=net2,book=$tmp/auale.bin' | grep -q '^info depth 1 seldepth 1 '"

# OwnBook in oware uci: --book's file, off again with false.
u=$(printf 'setoption name OwnBook value true\nposition startpos\ngo depth 1\nisready\nsetoption name OwnBook value false\ngo depth 1\nisready\n' |
  "$oware" uci --player minimax:depth=1,eval=net2 --book "$tmp/b1.bin")
check "OwnBook true: uci plays the book's move" grep -qx "bestmove $bm" <<<"$(grep -m1 '^bestmove' <<<"$u")"
check "OwnBook false: uci searches again" grep -qx "bestmove $own" <<<"$(grep '^bestmove' <<<"$u" | tail -1)"
check "OwnBook without a book file is an error line naming it" bash -c "
  printf 'setoption name OwnBook value true\nisready\n' | '$oware' uci --player minimax:depth=1,eval=net2 --book '$tmp/none.bin' |
  grep -q '^info string error: book $tmp/none.bin: cannot open it'"
check "OwnBook takes the default file" bash -c "
  mkdir -p '$tmp/home/oware' && cp '$tmp/b1.bin' '$tmp/home/oware/book.bin' &&
  printf 'setoption name OwnBook value true\nposition startpos\ngo depth 1\nisready\n' |
  XDG_CACHE_HOME='$tmp/home' '$oware' uci --player minimax:depth=1,eval=net2 | grep -qx 'bestmove $bm'"
check "OwnBook for a player without a book says it has no effect" bash -c "
  printf 'setoption name OwnBook value true\nisready\n' | '$oware' uci --player random |
  grep -q '^info string option OwnBook true: .*no effect'"

# Bad files: each a clear error, from book show and from minimax:book=.
bad() { # bad NAME REGEX: the file fails to load with REGEX, in both places
  check "book show: $1" fails_with "$2" "$oware" book show "$tmp/$1"
  check "minimax:book=: $1" fails_with "$2" "$oware" match --south "minimax:depth=1,eval=net2,book=$tmp/$1" --north random --games 1
}
head -c 100 "$tmp/b1.bin" >"$tmp/short.bin"
bad short.bin 'not a book file \(shorter than the header\)'
{ printf 'XXXXXXXX'; tail -c +9 "$tmp/b1.bin"; } >"$tmp/magic.bin"
bad magic.bin 'not a book file \(wrong magic\)'
head -c -5 "$tmp/b1.bin" >"$tmp/trunc.bin"
bad trunc.bin 'truncated'
{ cat "$tmp/b1.bin"; printf 'x'; } >"$tmp/long.bin"
bad long.bin 'longer than its header says'
# One byte of the last entry's score changed.
python3 - "$tmp/b1.bin" "$tmp/sum.bin" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[-2] ^= 0x40
open(sys.argv[2], 'wb').write(b)
PY
bad sum.bin 'checksum mismatch'
# A well-formed file (checksum right) whose entry holds an illegal move.
python3 - "$tmp/b1.bin" "$tmp/move.bin" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[160 + 19] = 13  # the first entry plays a house abapa does not have
h = 0xcbf29ce484222325
for x in b[160:]:
    h = ((h ^ x) * 0x100000001b3) & (2**64 - 1)
b[128:136] = h.to_bytes(8, 'little')
open(sys.argv[2], 'wb').write(b)
PY
bad move.bin 'entry 1 has a move that is not legal there'
check "a missing file is an error naming it" fails_with "book $tmp/none.bin: cannot open it" "$oware" book show "$tmp/none.bin"
check "book build without --plies is a usage error" fails_with 'missing --plies' "$oware" book build --depth 2 --out "$tmp/x.bin"
check "book build without --depth or --nodes is a usage error" fails_with 'missing --depth' "$oware" book build --plies 2 --out "$tmp/x.bin"
check "book build into a missing folder fails before the work" fails_with "$tmp/no/x.bin" "$oware" book build --plies 2 --depth 2 --out "$tmp/no/x.bin"
check "a failed build leaves no file" test ! -e "$tmp/no/x.bin"

[ "$fails" -eq 0 ] && echo "all book checks passed"
exit $((fails > 0))
