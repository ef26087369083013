# players/sources.cmake: the sources of players/ (file names without .c), one list for the native build (players/CMakeLists.txt) and the WebAssembly one (web/CMakeLists.txt, which leaves out OWARE_PLAYERS_NATIVE_ONLY).
set(OWARE_PLAYERS_SOURCES player random greedy eval eval_ending eval_net minimax minimax_tt minimax_search minimax_traps mcts engine
    plugin uci registry player_types perfect convert fight tablebase book book_build level
    level_curve time_budget)
# What a browser cannot run: engines (a process) and the UCI server over
# them, the perfect player (the endgame database's files), the book's
# builder; player_types.c's table names them, so web/ has its own.
set(OWARE_PLAYERS_NATIVE_ONLY engine uci perfect book_build player_types)
