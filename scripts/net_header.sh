#!/usr/bin/env bash
# net_header.sh: writes a built-in network's header (players/eval_net_default.h for eval=net, players/eval_netN.h for netN) from a network file of `oware tune net` (checked by loading it first).
# usage: scripts/net_header.sh NET_FILE [OWARE_BINARY] [net|net2|net3]  (writes the header whole; net3 by default)
set -euo pipefail
net=$1
oware=${2:-build/release/cli/oware}
name=${3:-net3}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case $name in
net) header=eval_net_default.h ;;
net2) header=eval_net2.h ;;
net3) header=eval_net3.h ;;
*) echo "net_header.sh: '$name': the built-in networks are net, net2 and net3" >&2; exit 1 ;;
esac
out="$root/players/$header"
# The file must load: a match of one ply under the network refuses a bad file.
"$oware" bench search --eval "$net" --depth 1 --repeat 1 >/dev/null
tmp=$(mktemp "$out.XXXXXX")
{
  echo "/* $header: the built-in network $name's file (minimax:eval=$name; players/eval_net.c parses it), written by scripts/net_header.sh from $(basename "$net"). */"
  awk '{ printf "\"%s\\n\"\n", $0 }' "$net"
} >"$tmp"
mv "$tmp" "$out"
echo "wrote $out from $net"
