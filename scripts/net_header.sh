#!/usr/bin/env bash
# net_header.sh: writes players/eval_net_default.h, the built-in network of minimax:eval=net, from a network file of `oware tune net` (checked by loading it first).
# usage: scripts/net_header.sh NET_FILE [OWARE_BINARY]  (writes players/eval_net_default.h whole)
set -euo pipefail
net=$1
oware=${2:-build/release/cli/oware}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="$root/players/eval_net_default.h"
# The file must load: a match of one ply under the network refuses a bad file.
"$oware" bench search --eval "$net" --depth 1 --repeat 1 >/dev/null
tmp=$(mktemp "$out.XXXXXX")
{
  echo "/* eval_net_default.h: the built-in network's file (minimax:eval=net; players/eval_net.c parses it), written by scripts/net_header.sh from $(basename "$net"). */"
  awk '{ printf "\"%s\\n\"\n", $0 }' "$net"
} >"$tmp"
mv "$tmp" "$out"
echo "wrote $out from $net"
