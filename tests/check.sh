# check.sh: what the end-to-end tests share, sourced: check NAME COMMAND... runs COMMAND and
# prints "ok   NAME" or "FAIL NAME", counting failures in $fails (which the script sets to 0);
# check_tmp makes the script's scratch folder $tmp, removed when it exits.
check() { # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
check_tmp() { # check_tmp: a fresh folder in $tmp, removed at exit (the script's EXIT trap)
  tmp=$(mktemp -d) || exit 1
  trap 'rm -rf "$tmp"' EXIT
}
