# check.sh: what the end-to-end tests share, sourced: check NAME COMMAND... runs COMMAND and
# prints "ok   NAME" or "FAIL NAME", counting failures in $fails (which the script sets to 0);
# check_tmp makes the script's scratch folder $tmp, removed when it exits; run, fail and
# expect_rc run $OWARE and check its exit code, counting in $checks and $fails; png_size reads
# a PNG's size; need_web skips (or fails, under CI=true) a web test without the web build.
check() { # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
check_tmp() { # check_tmp: a fresh folder in $tmp, removed at exit (the script's EXIT trap)
  tmp=$(mktemp -d) || exit 1
  trap 'rm -rf "$tmp"' EXIT
}

# run ARGS...: runs $OWARE (stdin empty, $RUN_TIMEOUT s at most, default 60), its output in
# $tmp; sets out, err, rc and what.
run() {
  timeout "${RUN_TIMEOUT:-60}" "$OWARE" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
  rc=$?
  out=$(cat "$tmp/out")
  err=$(cat "$tmp/err")
  what="oware $*"
}
fail() {
  fails=$((fails + 1))
  echo "FAIL: $what: $*"
}
# expect_rc N: the exit code of the last run.
expect_rc() {
  checks=$((checks + 1))
  [ "$rc" -eq "$1" ] || fail "exit code $rc, expected $1 (stderr: ${err:0:300})"
}

# png_size FILE: "WIDTHxHEIGHT" when FILE starts with the PNG signature and an IHDR chunk, else "none".
png_size() {
  local h
  h=$(od -An -tx1 -N24 "$1" 2>/dev/null | tr -d ' \n')
  [ "${h:0:16}" = 89504e470d0a1a0a ] && [ "${h:24:8}" = 49484452 ] || { echo none; return; }
  echo "$((16#${h:32:8}))x$((16#${h:40:8}))"
}
# need_web DIR: the WebAssembly build of scripts/web in DIR (the test_web_build fixture makes
# it), else exits: 77 (skipped, with a message), or 1 under CI=true, where it must be there.
need_web() {
  [ -f "$1/npm/oware.mjs" ] && [ -f "$1/engine.js" ] && command -v node >/dev/null 2>&1 && return 0
  if [ "${CI:-}" = true ]; then
    echo "FAIL: no WebAssembly build in $1 (emcc or node missing?); CI must have it: scripts/test installs emscripten"
    exit 1
  fi
  echo "SKIP: no WebAssembly build in $1: emscripten (emcc) or node is missing (apt-get install emscripten nodejs npm)"
  exit 77
}
