#!/usr/bin/env bash
# test_play.sh: end to end: `oware play` driven by scripted input (whole games, undo, hint, sides, variants, saving) and on a tmux screen.
set -u
oware=$1 # $2: tests/data
fails=0
tmp=$(mktemp -d)
sock=oware-play-test-$$
cleanup() {
  tmux -L "$sock" kill-server >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
# Input that tries every house in turn, many times: illegal tries are refused
# and the next letter is tried, so the game goes on to its end.
tries() { for _ in $(seq 1 400); do printf 'A\nB\nC\nD\nE\nF\n'; done; }

# A whole game against greedy, saved as OGN.
tries | "$oware" play --opponent greedy --save "$tmp/g.ogn" >"$tmp/g.out" 2>"$tmp/g.err"
check "a scripted game exits 0" test $? = 0
check "it ends with the game over line" grep -q '^Game over (' "$tmp/g.out"
check "it says where the game was saved" grep -q "^Game saved to $tmp/g.ogn" "$tmp/g.out"
check "the saved game has a final result" grep -Eq '^\[Result "[0-9.]+-[0-9.]+"\]' "$tmp/g.ogn"
check "the record names both players" grep -q '^\[South "you"\]' "$tmp/g.ogn"
grep -q '^\[North "greedy"\]' "$tmp/g.ogn"
check "the opponent is North" test $? = 0
"$oware" rate --ogn "$tmp/g.ogn" >"$tmp/r.out" 2>&1
check "the saved OGN reads back and replays (rate --ogn)" test $? = 0
"$oware" replay --ogn "$tmp/g.ogn" >"$tmp/rp.out" 2>&1
check "oware replay reads the saved OGN" test $? = 0
check "refused tries say why" grep -q 'is not legal here' "$tmp/g.out"
ls "$tmp" | grep -q tmp && tmpleft=1 || tmpleft=0
check "no temporary file is left" test $tmpleft = 0

# Undo takes back the move and the reply; hint answers with a letter.
printf 'F\nundo\nhint\nE\nquit\n' | "$oware" play --opponent greedy --save "$tmp/u.ogn" \
  --hint minimax:depth=4 >"$tmp/u.out" 2>&1
check "undo, hint and quit exit 0" test $? = 0
check "undo takes back two plies" grep -q '^Took back 2 moves\.' "$tmp/u.out"
check "hint names a move" grep -Eq '^Hint: [A-F] ' "$tmp/u.out"
check "the record holds the game after the undo" grep -qx 'E e \*' "$tmp/u.ogn"
check "an unfinished game's result is *" grep -q '^\[Result "\*"\]' "$tmp/u.ogn"
printf 'undo\nquit\n' | "$oware" play --opponent greedy >"$tmp/u2.out" 2>&1
check "undo before any move says so" grep -q '^Nothing to take back\.' "$tmp/u2.out"
printf 'hello\n' | "$oware" play --opponent greedy >"$tmp/w.out" 2>&1
check "a word that is no command is refused" grep -q "'hello' is not a move or a command" "$tmp/w.out"
check "the end of the input quits with 0" test "${PIPESTATUS[1]:-0}" = 0

# North: the opponent moves first; lower-case letters are the person's houses too.
printf 'a\nquit\n' | "$oware" play --opponent greedy --side north --save "$tmp/n.ogn" >"$tmp/n.out" 2>&1
check "--side north: the opponent opens" grep -q '^greedy plays [A-F]\.' "$tmp/n.out"
check "--side north: 'a' plays North's house a" grep -Eq '^[A-F] a [A-F] \*$' "$tmp/n.ogn"

# Another variant: four houses, from a given position.
printf 'E\nD\nquit\n' | "$oware" play --opponent random --variant 'abapa,houses=4' \
  --save "$tmp/v.ogn" >"$tmp/v.out" 2>&1
check "houses=4 draws four letters a row" grep -q '^ *A   B   C   D    South' "$tmp/v.out"
check "houses=4 refuses E" grep -q "'E' is not one of your houses (A-D)" "$tmp/v.out"
check "the record keeps the variant" grep -q '^\[Variant "abapa,houses=4"\]' "$tmp/v.ogn"
printf 'quit\n' | "$oware" play --opponent greedy --start 0-0-0-0-0-1-1-0-0-0-0-0-23-23-S \
  >"$tmp/s.out" 2>&1
check "--start plays from the position" grep -q 'Stores: South 23, North 23' "$tmp/s.out"

# Bad options: exit 2 and a message.
bad() { # bad NAME TEXT ARGS...
  local name=$1 text=$2
  shift 2
  "$oware" play "$@" </dev/null >"$tmp/b.out" 2>"$tmp/b.err"
  local rc=$?
  check "bad option ($name) exits 2" test $rc = 2
  check "bad option ($name) says: $text" grep -qF -e "$text" "$tmp/b.err"
}
bad "side" "--side is 'east'" --side east
bad "opponent" "opponent:" --opponent nosuch
bad "variant" "houses" --variant 'abapa,houses=99'
bad "start" "--start:" --start 1-2-3
bad "empty name" "--name '': give 1 to 127 bytes" --name ''
bad "a name with a newline" "--name" --name "$(printf 'a\nb')"
printf 'F\n' | "$oware" play --opponent greedy --save "$tmp/no/such/dir/g.ogn" >"$tmp/b.out" 2>"$tmp/b.err"
check "an unwritable --save exits 2 before the first move" bash -c "test $? = 2 && ! grep -q 'plays' '$tmp/b.out'"
check "and names the file" grep -qF "$tmp/no/such/dir/g.ogn" "$tmp/b.err"

# The screen, in a terminal: tmux runs the game, keys are sent, the pane is read.
if command -v tmux >/dev/null; then
  tmux -L "$sock" -f /dev/null new-session -d -x 110 -y 40 \
    "$oware play --opponent greedy --save $tmp/t.ogn; echo EXITED \$?; sleep 30"
  screen() { tmux -L "$sock" capture-pane -p -t 0; }
  wait_for() { # wait_for TEXT: up to 10 s
    for _ in $(seq 1 100); do screen | grep -qF "$1" && return 0; sleep 0.1; done
    return 1
  }
  check "tmux: the prompt shows" wait_for 'Your move ('
  tmux -L "$sock" send-keys -t 0 F Enter
  check "tmux: the opponent answers" wait_for 'greedy plays'
  screen >"$tmp/screen.txt"
  check "tmux: South's row shows the emptied F in brackets" \
    grep -Eq '^ +\|( +[0-9]+){5}\[ 0\]\|$' "$tmp/screen.txt"
  check "tmux: the stores are drawn" grep -q 'Stores: South 0, North 0' "$tmp/screen.txt"
  tmux -L "$sock" send-keys -t 0 undo Enter
  check "tmux: undo" wait_for 'Took back 2 moves'
  tmux -L "$sock" send-keys -t 0 quit Enter
  check "tmux: quit exits 0" wait_for 'EXITED 0'
  check "tmux: the game was saved" test -s "$tmp/t.ogn"
else
  echo "skip tmux: not installed (scripts/common.sh installs it)"
fi

# A line is one command, whatever its length: 255 x's and an A are one
# unknown command, not an error and then the move A.
python3 -c "print('x' * 255 + 'A')" | "$oware" play --opponent random >"$tmp/long.out" 2>&1
check "a long line is one command: refused once" test "$(grep -c 'is not a move or a command' "$tmp/long.out")" = 1
check "... and no move is played from its end" bash -c "! grep -q 'Last move: A by you' '$tmp/long.out'"

echo "$fails failure(s)"
[ "$fails" = 0 ]
