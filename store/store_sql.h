/* store_sql.h: inside arena/ only: a store's SQLite connection and the schema of the tables whose code lives beside store.c (analyse_store.c). */
#ifndef OWARE_STORE_SQL_H
#define OWARE_STORE_SQL_H

#include <sqlite3.h>

#include "store/store.h"

/* The connection of s, for the files of arena/ that keep tables of their
 * own in the store (one thread at a time, as the store itself). */
sqlite3 *store_sqlite(store *s);

/* Version 6 adds the endgame analysis of a run (`oware analyse`,
 * run/analyse_store.c): one row per player, its moves and losses by seeds
 * on the board, and one row per mistake. */
#define ANALYSIS_SQL                                                                               \
  "CREATE TABLE analysis (\n"                                                                     \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  player_idx INTEGER NOT NULL,\n"                                                              \
  "  seeds INTEGER NOT NULL CHECK (seeds BETWEEN 0 AND 32),\n"                                    \
  "  run_games INTEGER NOT NULL CHECK (run_games >= 0),\n"                                        \
  "  games INTEGER NOT NULL CHECK (games >= 0),\n"                                                \
  "  positions INTEGER NOT NULL CHECK (positions >= 0),\n"                                        \
  "  forced INTEGER NOT NULL CHECK (forced BETWEEN 0 AND positions),\n"                           \
  "  exact INTEGER NOT NULL CHECK (exact >= 0),\n"                                                \
  "  kept INTEGER NOT NULL CHECK (kept BETWEEN 0 AND exact),\n"                                   \
  "  cycle INTEGER NOT NULL CHECK (cycle >= 0),\n"                                                \
  "  proven INTEGER NOT NULL CHECK (proven >= 0),\n"                                              \
  "  lost2 INTEGER NOT NULL CHECK (lost2 >= 0),\n"                                                \
  "  changed INTEGER NOT NULL CHECK (changed BETWEEN 0 AND games),\n"                             \
  "  egdb_dir TEXT NOT NULL,\n"                                                                   \
  "  created TEXT NOT NULL,\n"                                                                    \
  "  PRIMARY KEY (run_id, player_idx),\n"                                                         \
  "  FOREIGN KEY (run_id, player_idx) REFERENCES players(run_id, idx),\n"                         \
  "  CHECK (exact + cycle + proven = positions)\n"                                                \
  ") WITHOUT ROWID;\n"                                                                            \
  "CREATE TABLE analysis_seeds (\n"                                                               \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  player_idx INTEGER NOT NULL,\n"                                                              \
  "  seeds INTEGER NOT NULL CHECK (seeds BETWEEN 0 AND 32),\n"                                    \
  "  moves INTEGER NOT NULL CHECK (moves > 0),\n"                                                 \
  "  lost2 INTEGER NOT NULL CHECK (lost2 >= 0),\n"                                                \
  "  PRIMARY KEY (run_id, player_idx, seeds),\n"                                                  \
  "  FOREIGN KEY (run_id, player_idx) REFERENCES players(run_id, idx)\n"                          \
  ") WITHOUT ROWID;\n"                                                                            \
  "CREATE TABLE analysis_mistakes (\n"                                                            \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  series_no INTEGER NOT NULL,\n"                                                               \
  "  game_no INTEGER NOT NULL,\n"                                                                 \
  "  ply INTEGER NOT NULL CHECK (ply >= 0),\n"                                                    \
  "  player_idx INTEGER NOT NULL,\n"                                                              \
  "  seeds INTEGER NOT NULL CHECK (seeds BETWEEN 1 AND 32),\n"                                    \
  "  position TEXT NOT NULL,\n"                                                                   \
  "  played INTEGER NOT NULL CHECK (played BETWEEN 0 AND 15),\n"                                  \
  "  best INTEGER NOT NULL CHECK (best BETWEEN 0 AND 15),\n"                                      \
  "  best2 INTEGER NOT NULL,\n"                                                                   \
  "  played2 INTEGER NOT NULL CHECK (played2 >= 0),\n"                                            \
  "  lost2 INTEGER NOT NULL CHECK (lost2 > 0 AND lost2 = best2 - played2),\n"                     \
  "  proven INTEGER NOT NULL CHECK (proven BETWEEN 0 AND 1),\n"                                   \
  "  changed INTEGER NOT NULL CHECK (changed BETWEEN 0 AND 1),\n"                                 \
  "  PRIMARY KEY (run_id, series_no, game_no, ply),\n"                                            \
  "  FOREIGN KEY (run_id, series_no, game_no) REFERENCES games(run_id, series_no, game_no)\n"     \
  "    ON DELETE CASCADE,\n"                                                                      \
  "  FOREIGN KEY (run_id, player_idx) REFERENCES players(run_id, idx)\n"                          \
  ") WITHOUT ROWID;\n"

/* Schema 6 → 7: minimax and mcts read the endgame tables by default
 * (egdb=auto) from schema 7 on; a run stored before played them with
 * egdb=off, the default then, which its specs (players and a tuning run's
 * `player` setting) now say, so that a resume plays the same games. */
#define EGDB_OFF_SPEC(col)                                                                   \
  "SET " col " = " col " || CASE WHEN instr(" col ", ':') > 0 THEN ',egdb=off' ELSE "          \
  "':egdb=off' END WHERE (" col " IN ('minimax', 'mcts') OR " col " LIKE 'minimax:%' OR " col \
  " LIKE 'mcts:%') AND instr(" col ", 'egdb=') = 0"
#define EGDB_OFF_SQL                                                                         \
  "UPDATE players " EGDB_OFF_SPEC("spec") ";\n"                                               \
  "UPDATE run_config " EGDB_OFF_SPEC("value") " AND key = 'player' AND type = 'text';\n"

#endif

