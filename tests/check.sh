# check.sh: what the end-to-end tests share, sourced: check NAME COMMAND... runs COMMAND and
# prints "ok   NAME" or "FAIL NAME", counting failures in $fails (which the script sets to 0).
check() { # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
