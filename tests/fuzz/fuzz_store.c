/* fuzz_store.c: a database as input: a valid database whose rows (or bytes) the input corrupts, then read and exported through the store API. */
#include <sqlite3.h>
#include <unistd.h>

#include "store/store.h"
#include "run/tournament.h"
#include "core/notation.h"
#include "core/variant.h"
#include "tests/fuzz/fuzz.h"

static char path[128];
static unsigned char *image; /* the valid database, checkpointed */
static size_t image_len;

/* Builds the valid database once: a run of 3 players, 2 variants, 6 real games. */
static void build_image(void) {
  char err[512];
  store *s;
  unlink(path);
  if (store_open(path, 1, &s, err, sizeof err)) abort();
  store_run r;
  store_run_init(&r);
  r.kind = STORE_ROUND_ROBIN;
  r.rounds = r.threads = 1;
  r.seed = 1;
  if (store_run_set(&r.name, "fuzz") || store_run_set(&r.format, "games:2") ||
      store_run_set(&r.openings, "random:2") || store_run_set(&r.command, "fuzz"))
    abort();
  for (int i = 0; i < 3; i++) {
    char name[16], spec[32];
    snprintf(name, sizeof name, "p%d", i);
    snprintf(spec, sizeof spec, "random:seed=%d", i);
    if (store_run_add_player(&r, name, spec)) abort();
  }
  if (store_run_add_variant(&r, "abapa") || store_run_add_variant(&r, "awari,houses=4")) abort();
  if (store_run_create(s, &r, err, sizeof err)) abort();
  static const char *const moves[6] = {"FdEe", "Ab", "", "CaDb", "A", "BcBc"};
  store_game g[6];
  for (int k = 0; k < 6; k++) {
    memset(&g[k], 0, sizeof g[k]);
    g[k].run_id = r.id;
    g[k].series_no = k / 2;
    g[k].game_no = k % 2;
    g[k].variant_idx = k >= 4;
    g[k].a_idx = k / 2 % 3;
    g[k].b_idx = (k / 2 + 1) % 3;
    g[k].south_idx = k % 2 ? g[k].b_idx : g[k].a_idx;
    g[k].north_idx = k % 2 ? g[k].a_idx : g[k].b_idx;
    snprintf(g[k].opening, sizeof g[k].opening, "%s",
             k >= 4 ? "4-4-4-4-4-4-4-4-0-0-S" : "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
    g[k].moves = moves[k];
    g[k].plies = (int)strlen(moves[k]);
    g[k].winner = k % 3 - 1;
    g[k].score2[0] = 40;
    g[k].score2[1] = 56;
    g[k].end = OUTCOME_MAJORITY;
    g[k].seed = (uint64_t)k;
  }
  /* Letters of a 4-house variant for the awari games. */
  g[4].moves = "A";
  g[5].moves = "BcBc";
  g[4].score2[1] = g[5].score2[1] = 24;
  if (store_games_insert(s, g, 6, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    abort();
  }
  store_run_free(&r);
  store_close(s);
  FILE *f = fopen(path, "rb");
  if (!f) abort();
  fseek(f, 0, SEEK_END);
  image_len = (size_t)ftell(f);
  rewind(f);
  image = malloc(image_len);
  if (!image || fread(image, 1, image_len, f) != image_len) abort();
  fclose(f);
}

typedef struct reader {
  const store_run *run;
  long n;
} reader;

/* What export does with a row: every index it trusts must be in range. */
static int read_game(void *ctx, const store_game *g) {
  reader *rd = ctx;
  const store_run *r = rd->run;
  FUZZ_CHECK(g->variant_idx >= 0 && g->variant_idx < r->nvariants, "variant_idx %d", g->variant_idx);
  FUZZ_CHECK(g->south_idx >= 0 && g->south_idx < r->nplayers, "south_idx %d", g->south_idx);
  FUZZ_CHECK(g->north_idx >= 0 && g->north_idx < r->nplayers, "north_idx %d", g->north_idx);
  variant v;
  board b;
  game gm;
  char err[512];
  FUZZ_CHECK(variant_parse(r->variant[g->variant_idx], &v, err, sizeof err) == 0, "%s", err);
  FUZZ_CHECK(notation_parse_position(g->opening, &v, &b, err, sizeof err) == 0, "%s", err);
  if (game_init(&gm, &v, &b)) abort();
  for (const char *m = g->moves; *m; m++) {
    int i = notation_move_index(&v, *m);
    FUZZ_CHECK(i >= 0, "move letter %c", *m);
    if (game_play(&gm, i)) break;
  }
  game_free(&gm);
  rd->n++;
  return 0;
}

/* The fuzzer's files go when it exits. */
static void remove_files(void) {
  char side[160];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!*path) {
    atexit(remove_files);
    /* In memory when there is a tmpfs: SQLite syncs, and the fuzzer wants speed. */
    snprintf(path, sizeof path, "%s/oware-fuzz-store-%ld.db", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm",
             (long)getpid());
    build_image();
  }
  char sidecar[160];
  snprintf(sidecar, sizeof sidecar, "%s-wal", path);
  unlink(sidecar);
  snprintf(sidecar, sizeof sidecar, "%s-shm", path);
  unlink(sidecar);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(image, 1, image_len, f) != image_len) abort();
  fclose(f);
  if (size >= 1 && data[0] == 0xff) {
    /* Raw bytes: overwrite the file at an offset. */
    if (size < 3) return 0;
    size_t off = ((size_t)data[1] << 8 | data[2]) % image_len;
    int fd = -1;
    FILE *w = fopen(path, "r+b");
    if (!w) abort();
    (void)fd;
    fseek(w, (long)off, SEEK_SET);
    fwrite(data + 3, 1, size - 3 < image_len - off ? size - 3 : image_len - off, w);
    fclose(w);
  } else {
    /* Rows: each 6-byte op sets one column of one games/players/variants row. */
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) abort();
    sqlite3_exec(db, "PRAGMA synchronous=OFF", NULL, NULL, NULL);
    static const char *const cols[] = {"series_no", "game_no",  "variant_idx", "round",
                                       "a_idx",     "b_idx",    "south_idx",   "north_idx",
                                       "opening",   "moves",    "winner",      "score_south",
                                       "score_north", "plies",  "end_reason",  "seed"};
    for (size_t i = 0; i + 6 <= size && i < 6 * 16; i += 6) {
      const uint8_t *op = data + i;
      char sql[256];
      int table = op[0] % 4, row = op[1] % 8;
      sqlite3_stmt *st;
      if (table < 2)
        snprintf(sql, sizeof sql, "UPDATE games SET %s = ?1 WHERE rowid = %d", cols[op[2] % 16], row);
      else if (table == 2)
        snprintf(sql, sizeof sql, "UPDATE variants SET %s = ?1 WHERE rowid = %d",
                 op[2] & 1 ? "name" : "idx", row);
      else
        snprintf(sql, sizeof sql, "UPDATE players SET %s = ?1 WHERE rowid = %d",
                 op[2] & 1 ? "name" : "idx", row);
      if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) continue;
      int32_t x = (int32_t)((uint32_t)op[4] << 8 | op[5]) - 1000;
      switch (op[3] % 4) {
      case 0: sqlite3_bind_int(st, 1, x); break;
      case 1: sqlite3_bind_int(st, 1, (int32_t)((uint32_t)op[4] << 24 | (uint32_t)op[5] << 16)); break;
      case 2: {
        /* Text from the rest of the input, up to 40 bytes. */
        size_t len = size - (i + 6) < 40 ? size - (i + 6) : 40;
        sqlite3_bind_text(st, 1, (const char *)data + i + 6, (int)len, SQLITE_TRANSIENT);
        break;
      }
      default: sqlite3_bind_null(st, 1);
      }
      sqlite3_step(st);
      sqlite3_finalize(st);
    }
    sqlite3_close(db);
  }
  store *s;
  char err[1024] = "";
  if (store_open_readonly(path, &s, err, sizeof err)) {
    FUZZ_CHECK_ERR(err);
    return 0;
  }
  store_run *r = calloc(1, sizeof *r);
  if (!r) abort();
  if (store_run_load(s, 1, r, err, sizeof err) == 0) {
    reader rd = {r, 0};
    if (store_games_foreach(s, 1, read_game, &rd, err, sizeof err)) FUZZ_CHECK_ERR(err);
    store_pair_count *pc = NULL;
    int n = 0;
    int64_t runs[1] = {1};
    if (store_pair_counts(s, runs, 1, NULL, &pc, &n, err, sizeof err)) FUZZ_CHECK_ERR(err);
    free(pc);
    FILE *null = fopen("/dev/null", "w");
    if (null) {
      tournament_print_standings(s, 1, null, err, sizeof err);
      fclose(null);
    }
  }
  store_run_free(r);
  free(r);
  store_close(s);
  return 0;
}
