/* schema.c: the text of the store's own tables, newest version (docs/SCHEMA.md): runs, players, variants, series, games, ratings, run settings, openings, files and locks. */
#include "store/store_sql.h"

/* Version 2 adds the ratings of fits (`oware rate`, tournaments), one row
 * per player per fit; the rows of one fit share `batch`. run_id is NULL when
 * several runs were pooled. The index serves ratings by run in order. */
#define RATINGS_SQL                                                                                \
  "CREATE TABLE ratings (\n"                                                                      \
  "  id INTEGER PRIMARY KEY,\n"                                                                   \
  "  batch INTEGER NOT NULL CHECK (batch >= 1),\n"                                                \
  "  run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,\n"                                     \
  "  scope TEXT NOT NULL,\n"                                                                      \
  "  player TEXT NOT NULL,\n"                                                                     \
  "  elo REAL NOT NULL,\n"                                                                        \
  "  lo REAL NOT NULL,\n"                                                                         \
  "  hi REAL NOT NULL,\n"                                                                         \
  "  games INTEGER NOT NULL CHECK (games >= 0),\n"                                                \
  "  score REAL NOT NULL CHECK (score BETWEEN 0 AND 1),\n"                                        \
  "  draws REAL NOT NULL CHECK (draws BETWEEN 0 AND 1),\n"                                        \
  "  games_total INTEGER NOT NULL CHECK (games_total >= 0),\n"                                    \
  "  bound INTEGER NOT NULL CHECK (bound BETWEEN 0 AND 1),\n"                                     \
  "  created TEXT NOT NULL,\n"                                                                    \
  "  CHECK (lo <= hi)\n"                                                                          \
  ");\n"                                                                                          \
  "CREATE INDEX ratings_by_run ON ratings (run_id, batch);\n"

/* Version 5: a run's settings as typed key/value rows (replacing the
 * command line parsed back), the positions of a file:PATH openings run,
 * the files a run depends on (weights files, kept whole), and the run lock
 * (one process plays a run at a time). */
#define V5_SQL                                                                                     \
  "CREATE TABLE run_config (\n"                                                                   \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  key TEXT NOT NULL,\n"                                                                        \
  "  type TEXT NOT NULL,\n"                                                                       \
  "  value TEXT NOT NULL,\n"                                                                      \
  "  PRIMARY KEY (run_id, key)\n"                                                                 \
  ") WITHOUT ROWID;\n"                                                                            \
  "CREATE TABLE run_openings (\n"                                                                 \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  idx INTEGER NOT NULL CHECK (idx >= 0),\n"                                                    \
  "  position TEXT NOT NULL,\n"                                                                   \
  "  PRIMARY KEY (run_id, idx)\n"                                                                 \
  ") WITHOUT ROWID;\n"                                                                            \
  "CREATE TABLE run_files (\n"                                                                    \
  "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"                            \
  "  path TEXT NOT NULL,\n"                                                                       \
  "  hash TEXT NOT NULL,\n"                                                                       \
  "  content BLOB NOT NULL,\n"                                                                    \
  "  PRIMARY KEY (run_id, path)\n"                                                                \
  ");\n"                                                                                          \
  "CREATE TABLE run_locks (\n"                                                                    \
  "  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,\n"                         \
  "  pid INTEGER NOT NULL,\n"                                                                     \
  "  host TEXT NOT NULL,\n"                                                                       \
  "  since TEXT NOT NULL\n"                                                                       \
  ");\n"

/* The newest schema (version 8) of the store's own tables: those of version
 * 1, RATINGS_SQL and V5_SQL, and games.move_records (version 8: each move's
 * time, score and depth, core/move_record.h; NULL in older games). The drivers' tables (the study's
 * variant_metrics, run/study_store.c; the analysis tables,
 * run/analyse_store.c) are theirs: registered with the store (tables.c) and
 * created after these. Each later version adds a step to store_sql_migrate
 * (migrate.c) and bumps STORE_SCHEMA_VERSION; this text always creates the
 * newest schema.
 * Constraints are chosen for the insert path: no `IN (…)` (an ephemeral
 * table per row), no pattern check on games.seed (games.c writes it), and
 * no index on games beyond the UNIQUE one, which serves games by run in
 * (series, game) order and the foreign keys' child lookups. */
static const char schema_sql[] =
    "CREATE TABLE runs (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  name TEXT NOT NULL,\n"
    "  kind TEXT NOT NULL,\n"
    "  format TEXT NOT NULL,\n"
    "  openings TEXT NOT NULL,\n"
    "  rounds INTEGER NOT NULL CHECK (rounds >= 0),\n"
    "  threads INTEGER NOT NULL CHECK (threads >= 0),\n"
    "  seed TEXT NOT NULL CHECK (seed <> '' AND seed NOT GLOB '*[^0-9]*'),\n"
    "  command TEXT NOT NULL,\n"
    "  status TEXT NOT NULL,\n"
    "  started TEXT NOT NULL,\n"
    "  finished TEXT\n"
    ");\n"
    "CREATE TABLE players (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  idx INTEGER NOT NULL CHECK (idx >= 0),\n"
    "  name TEXT NOT NULL,\n"
    "  spec TEXT NOT NULL,\n"
    "  PRIMARY KEY (run_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE variants (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  idx INTEGER NOT NULL CHECK (idx >= 0),\n"
    "  name TEXT NOT NULL,\n"
    "  PRIMARY KEY (run_id, idx)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE series (\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  series_no INTEGER NOT NULL CHECK (series_no >= 0),\n"
    "  variant_idx INTEGER NOT NULL,\n"
    "  round INTEGER NOT NULL,\n"
    "  a_idx INTEGER NOT NULL,\n"
    "  b_idx INTEGER NOT NULL,\n"
    "  games INTEGER NOT NULL CHECK (games >= 0),\n"
    "  wins_a INTEGER NOT NULL CHECK (wins_a >= 0),\n"
    "  wins_b INTEGER NOT NULL CHECK (wins_b >= 0),\n"
    "  draws INTEGER NOT NULL CHECK (draws >= 0),\n"
    "  winner INTEGER NOT NULL CHECK (winner BETWEEN -1 AND 1),\n"
    "  PRIMARY KEY (run_id, series_no),\n"
    "  FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx),\n"
    "  FOREIGN KEY (run_id, a_idx) REFERENCES players(run_id, idx),\n"
    "  FOREIGN KEY (run_id, b_idx) REFERENCES players(run_id, idx),\n"
    "  CHECK (wins_a + wins_b + draws = games)\n"
    ") WITHOUT ROWID;\n"
    "CREATE TABLE games (\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
    "  series_no INTEGER NOT NULL CHECK (series_no >= 0),\n"
    "  game_no INTEGER NOT NULL CHECK (game_no >= 0),\n"
    "  variant_idx INTEGER NOT NULL,\n"
    "  round INTEGER NOT NULL,\n"
    "  a_idx INTEGER NOT NULL,\n"
    "  b_idx INTEGER NOT NULL,\n"
    "  south_idx INTEGER NOT NULL,\n"
    "  north_idx INTEGER NOT NULL,\n"
    "  opening TEXT NOT NULL,\n"
    "  moves TEXT NOT NULL,\n"
    "  winner INTEGER NOT NULL CHECK (winner BETWEEN -1 AND 1),\n"
    "  score_south REAL NOT NULL,\n"
    "  score_north REAL NOT NULL,\n"
    "  plies INTEGER NOT NULL CHECK (plies >= 0),\n"
    "  end_reason TEXT NOT NULL,\n"
    "  detail TEXT NOT NULL DEFAULT '',\n"
    "  seed TEXT NOT NULL,\n"
    "  seconds REAL NOT NULL,\n"
    "  move_records TEXT,\n"
    "  UNIQUE (run_id, series_no, game_no),\n"
    "  FOREIGN KEY (run_id, variant_idx) REFERENCES variants(run_id, idx),\n"
    "  FOREIGN KEY (run_id, south_idx) REFERENCES players(run_id, idx),\n"
    "  FOREIGN KEY (run_id, north_idx) REFERENCES players(run_id, idx),\n"
    "  CHECK ((south_idx = a_idx AND north_idx = b_idx) OR\n"
    "         (south_idx = b_idx AND north_idx = a_idx))\n"
    ");\n" RATINGS_SQL V5_SQL;

const char store_sql_ratings[] = RATINGS_SQL;
const char store_sql_v5[] = V5_SQL;

int store_sql_create_schema(sqlite3 *db, char *err, size_t errlen) {
  return store_sql_exec(db, schema_sql, err, errlen) || store_sql_create_registered(db, err, errlen)
             ? -1
             : 0;
}
