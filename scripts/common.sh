# common.sh: shared by scripts/run and scripts/test: installs what is missing, builds.
# Sourced, not run. Sets ROOT to the project folder.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PACKAGES=(cmake make gcc libc6-dev pkg-config libgsl-dev libsqlite3-dev sqlite3 gnuplot-nox libcmocka-dev libxml2-utils
  clang libclang-rt-14-dev tmux python3)

say() { printf '==> %s\n' "$*" >&2; }

# Installs the Debian packages that are not installed yet, quietly.
install_missing() {
  local missing=() p
  for p in "${PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing missing packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo=(sudo); else
      echo "error: packages ${missing[*]} are missing and this user cannot install them (no root, no sudo)" >&2
      return 1
    fi
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null || return 1
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null || return 1
}

# build DIR [cmake args...]: configures and builds into DIR.
build() {
  local dir=$1
  shift
  cmake -S "$ROOT" -B "$dir" "$@" >/dev/null || return 1
  cmake --build "$dir" -j "$(nproc)" -- --no-print-directory >/dev/null 2>"$dir.log" || {
    cat "$dir.log" >&2
    return 1
  }
}
