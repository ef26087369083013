#!/usr/bin/env bash
# test_install.sh: `cmake --install` into a temporary prefix; the example program and a plug-in built against the installed header with pkg-config; both play.
set -u
build=$1 # the build folder
src=$2   # the source folder
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.out" 2>&1
check "cmake --install into a temporary prefix" test $? = 0
check "the oware binary is installed" test -x "$prefix/bin/oware"
"$prefix/bin/oware" --version >"$tmp/v.out" 2>&1
check "the installed binary runs" grep -q '^oware ' "$tmp/v.out"
check "the header is installed" test -f "$prefix/include/oware.h"
pc=$(find "$prefix" -name oware.pc | head -1)
check "the pkg-config file is installed" test -n "$pc"
lib=$(dirname "$(dirname "$pc")")
check "the shared library is installed" test -e "$lib/liboware.so"
check "the shared library exports only oware_ functions" \
  test -z "$(nm -D --defined-only "$lib/liboware.so" | awk '$2 == "T" && $3 !~ /^oware_/')"
# Each call is tagged with the API version that added it (lib/oware.map).
nm -D --defined-only "$lib/liboware.so" >"$tmp/nm.out"
check "API 1's calls keep the tag OWARE_1" grep -q ' T oware_game_new@@OWARE_1$' "$tmp/nm.out"
check "API 2's calls are tagged OWARE_2" grep -q ' T oware_game_undo@@OWARE_2$' "$tmp/nm.out"
check "every call of include/oware.h is exported" \
  test "$(grep -c ' T oware_' "$tmp/nm.out")" = "$(grep -Ec '^[a-z].* \*?oware_[a-z_]+\(' "$prefix/include/oware.h")"

export PKG_CONFIG_PATH=$(dirname "$pc")
# A sanitizer build's library needs its runtime first: build the programs
# with the same sanitizer (scripts/test runs this under address and thread).
san=()
if ldd "$lib/liboware.so" | grep -q libasan; then san=(-fsanitize=address,undefined);
elif ldd "$lib/liboware.so" | grep -q libtsan; then san=(-fsanitize=thread); fi
check "pkg-config knows oware" test "$(pkg-config --modversion oware)" = "$("$prefix/bin/oware" --version | cut -d' ' -f2)"
# The example, built from the installed copy, only with what pkg-config says.
cc -std=c11 -Wall -Wextra -Werror "${san[@]}" "$prefix/share/oware/examples/example.c" \
  $(pkg-config --cflags --libs oware) -o "$tmp/example" 2>"$tmp/cc.err"
check "the example builds against the installed files" test $? = 0
cat "$tmp/cc.err"
LD_LIBRARY_PATH=$lib "$tmp/example" abapa 'minimax:depth=3' greedy >"$tmp/ex.out" 2>&1
check "the example plays a game to its end" test $? = 0
cat "$tmp/ex.out"
check "it prints the result" grep -Eq '^result: [0-9.]+-[0-9.]+ \((majority|no-move|repetition|ply-limit)\)' "$tmp/ex.out"
# The moves it printed replay to the same end with the installed binary.
moves=$(sed -n 's/^moves ([0-9]*): //p' "$tmp/ex.out")
final=$(sed -n 's/^final position: //p' "$tmp/ex.out")
"$prefix/bin/oware" replay "$moves" >"$tmp/replay.out" 2>&1
check "oware replay agrees the moves are legal" test $? = 0
LD_LIBRARY_PATH=$lib "$tmp/example" 'awari' 'mcts:playouts=200' random >"$tmp/ex2.out" 2>&1
check "another variant and players" grep -q 'variant awari' "$tmp/ex2.out"
LD_LIBRARY_PATH=$lib "$tmp/example" nosuch >"$tmp/ex3.out" 2>&1
check "a bad variant is an error from the library" test $? = 2
check "which names the variant" grep -q 'variant:' "$tmp/ex3.out"

# The default levels file: installed, found by the installed binary beside it
# (<bin>/../share/oware/levels.txt), and levels by name through the library.
levels=$prefix/share/oware/levels.txt
check "the levels file is installed" test -f "$levels"
echo "only-installed greedy" >>"$levels"
env -u OWARE_LEVELS "$prefix/bin/oware" match --south level:only-installed --north random \
  --games 1 --quiet >"$tmp/lv.out" 2>&1
check "the installed binary reads the installed levels file" test $? = 0
env -u OWARE_LEVELS "$prefix/bin/oware" players level >"$tmp/pl.out" 2>&1
check "which it names as its default" grep -q "default file: $prefix/bin/../share/oware/levels.txt" "$tmp/pl.out"
LD_LIBRARY_PATH=$lib OWARE_LEVELS=$levels "$tmp/example" abapa level:easy level:only-installed \
  >"$tmp/ex5.out" 2>&1
check "the library plays levels by name" grep -q '^result: ' "$tmp/ex5.out"
# Without $OWARE_LEVELS, a program outside the prefix finds the file beside
# the installed library (the build's own prefix and source tree do not have
# this level).
env -u OWARE_LEVELS LD_LIBRARY_PATH=$lib "$tmp/example" abapa level:only-installed greedy \
  >"$tmp/ex6.out" 2>&1
check "the library finds the levels file beside itself" grep -q '^result: ' "$tmp/ex6.out"

# The example of API 2: the levels with their Elo, an analysis, a take-back, a copy.
cc -std=c11 -Wall -Wextra -Werror "${san[@]}" "$prefix/share/oware/examples/example_analyse.c" \
  $(pkg-config --cflags --libs oware) -lm -o "$tmp/example_analyse" 2>"$tmp/cc3.err"
check "the analysis example builds against the installed files" test $? = 0
cat "$tmp/cc3.err"
LD_LIBRARY_PATH=$lib OWARE_LEVELS=$levels "$tmp/example_analyse" abapa 'minimax:egdb=off' FdE 6 \
  >"$tmp/an.out" 2>&1
check "it runs" test $? = 0
cat "$tmp/an.out"
check "it lists the installed levels with their Elo" grep -q "^levels ($levels):" "$tmp/an.out"
check "each with its Elo" grep -Eq '^  hard +Elo +[0-9.]+ \[' "$tmp/an.out"
check "and a level of the file without one" grep -q '^  only-installed not calibrated' "$tmp/an.out"
check "and the range of level:elo=N" grep -Eq '^level:elo=N plays at any N from -?[0-9]+ to [0-9]+$' "$tmp/an.out"
check "the analysis has the move, score, depth 6, nodes and pv" \
  grep -Eq '^analysis: move ([A-Fa-f]) score -?[0-9]+ depth 6 nodes [1-9][0-9]* pv \1[A-Fa-f]*$' "$tmp/an.out"
pv=$(sed -n 's/^analysis: .* pv //p' "$tmp/an.out")
check "the take-back restores the position" grep -Eq '^take-back: ([^ ]+) -> \1$' "$tmp/an.out"
"$prefix/bin/oware" replay FdE "$pv" >"$tmp/pv.out" 2>&1
check "the pv played on the copy is where oware replay puts it" \
  test "$(sed -n 's/^after the pv: //p' "$tmp/an.out")" = "$(sed -n 's/^position //p' "$tmp/pv.out")"

# A plug-in built against the same header, loaded by the binary and by the library.
cc -std=c11 -Wall -Wextra -Werror "${san[@]}" -shared -fPIC "$src/tests/data/plugin_first.c" \
  $(pkg-config --cflags oware) -o "$tmp/first.so" 2>"$tmp/cc2.err"
check "a plug-in builds against the installed header" test $? = 0
cat "$tmp/cc2.err"
"$prefix/bin/oware" match --south "plugin:path=$tmp/first.so,order=last" --north greedy --games 2 \
  >"$tmp/pm.out" 2>&1
check "the binary plays the plug-in" test $? = 0
LD_LIBRARY_PATH=$lib "$tmp/example" abapa "plugin:path=$tmp/first.so" greedy >"$tmp/ex4.out" 2>&1
check "the library plays the plug-in" grep -q '^result: ' "$tmp/ex4.out"
check "the plug-in's moves are its rule's (the first legal house)" \
  grep -q '^moves ([0-9]*): A' "$tmp/ex4.out"
# A plug-in built for API 1 (the plug-in interface is the same since) still loads.
sed 's/{OWARE_API_VERSION,/{1,/' "$src/tests/data/plugin_first.c" >"$tmp/first1.c"
cc -std=c11 -Wall -Wextra -Werror "${san[@]}" -shared -fPIC "$tmp/first1.c" \
  $(pkg-config --cflags oware) -o "$tmp/first1.so" 2>"$tmp/cc4.err"
check "a plug-in of API 1 builds" test $? = 0
cat "$tmp/cc4.err"
"$prefix/bin/oware" match --south "plugin:path=$tmp/first1.so" --north greedy --games 1 \
  >"$tmp/pm1.out" 2>&1
check "and the binary plays it" test $? = 0
LD_LIBRARY_PATH=$lib "$tmp/example" abapa "plugin:path=$tmp/first1.so" greedy >"$tmp/ex6.out" 2>&1
check "and so does the library" grep -q '^moves ([0-9]*): A' "$tmp/ex6.out"
sed 's/{OWARE_API_VERSION,/{OWARE_API_VERSION + 1,/' "$src/tests/data/plugin_first.c" >"$tmp/first9.c"
cc -std=c11 -shared -fPIC "${san[@]}" "$tmp/first9.c" $(pkg-config --cflags oware) -o "$tmp/first9.so"
"$prefix/bin/oware" match --south "plugin:path=$tmp/first9.so" --north greedy --games 1 \
  >"$tmp/pm9.out" 2>&1
check "a plug-in of a later API is refused" grep -q 'was built for oware.h API 3; this oware has API 1 to 2' "$tmp/pm9.out"
"$prefix/bin/oware" match --south "plugin:path=$tmp/first.so,nosuch=1" --north greedy --games 1 \
  >"$tmp/pm2.out" 2>&1
check "an unknown plug-in option is an error" grep -q "unknown option 'nosuch'" "$tmp/pm2.out"

echo "$fails failure(s)"
[ "$fails" = 0 ]
