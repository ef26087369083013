/* study_run.c: a variant study's run: players, variants, the shared openings file, the games, the study stored. */
#include "run/study_run.h"
#include "core/error.h"
#include "core/path.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/study.h"

#define T study_config
#define COL SETTINGS_COLUMN
const settings_key study_settings[] = {
    SETTINGS_K_TEXT("players", T, players, "'SPEC;SPEC;...'", NULL, "the players of a study",
                    COL),
    SETTINGS_K_TEXT("variants", T, variants, "'V;V;...'",
                    "abapa;grandslam-forbidden;grandslam-all;grandslam-win", "the variants", COL),
    SETTINGS_K_INT("games", T, games, 2, 1000000, "N", "20", "games a pairing and variant (even)",
                   COL),
    SETTINGS_K_INT("seed", T, seed, 0, LLONG_MAX, "S", "1", "the run's seed", COL),
    SETTINGS_K_TEXT("openings", T, openings, "random:PLIES|file:PATH", "random:2", "the openings",
                    COL),
    SETTINGS_K_TEXT("name", T, name, "NAME", "variants", "the run's name", COL),
    SETTINGS_END,
};
#undef COL
#undef T

int study_split_list(const char *text, int (*fn)(void *ctx, const char *item), void *ctx) {
  char *buf = strdup(text);
  if (!buf) return -1;
  char *save = NULL;
  int rc = 0;
  for (char *tok = strtok_r(buf, ";", &save); tok && !rc; tok = strtok_r(NULL, ";", &save)) {
    while (*tok == ' ' || *tok == '\t' || *tok == '\n') tok++;
    size_t l = strlen(tok);
    while (l && strchr(" \t\n\r", tok[l - 1])) tok[--l] = 0;
    if (l) rc = fn(ctx, tok);
  }
  free(buf);
  return rc;
}

/* The absolute folder of the database at path. */
static int db_folder(const char *path, char *abs, size_t len, char *err, size_t errlen) {
  char dir[PATH_MAX], cwd[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  else snprintf(dir, sizeof dir, ".");
  if (dir[0] == '/') return snprintf(abs, len, "%s", dir), 0;
  if (!getcwd(cwd, sizeof cwd))
    return error_set(err, errlen, "cannot find the current folder: %s", strerror(errno)), -1;
  if (!strcmp(dir, ".")) snprintf(abs, len, "%s", cwd);
  else snprintf(abs, len, "%.2000s/%.2000s", cwd, dir);
  return 0;
}

/* Shared openings: a file of positions, one per game pair, that every
 * variant plays (tournament_game_setup draws random openings per
 * variant). */
static int shared_openings(const study_config *c, store_run *r, const variant *vs, int plies,
                           char *err, size_t errlen) {
  char abs[PATH_MAX], file[PATH_MAX + 128];
  if (db_folder(c->db_path, abs, sizeof abs, err, errlen)) return STUDY_BAD_INPUT;
  if (path_mkdirs(abs, err, errlen)) return STUDY_FAILED; /* the database's folder (results/) */
  snprintf(file, sizeof file, "%s/variants-openings-p%d-n%lld-s%llu-%s.txt", abs, plies,
           c->games / 2, (unsigned long long)c->seed,
           vs[0].houses == 6 && vs[0].seeds == 4 ? "h6s4" : "custom");
  if (study_write_openings(file, vs, r->nvariants, plies, (int)(c->games / 2), (uint64_t)c->seed,
                           err, errlen))
    return STUDY_FAILED;
  char *o = malloc(strlen(file) + 6);
  if (!o) return error_set(err, errlen, "out of memory"), STUDY_FAILED;
  snprintf(o, strlen(file) + 6, "file:%s", file);
  free(r->openings);
  r->openings = o;
  return 0;
}

int study_prepare(const study_config *c, tournament *t, char *note, size_t notelen, char *err,
                  size_t errlen) {
  memset(t, 0, sizeof *t);
  if (note && notelen) note[0] = 0;
  store_run *r = &t->run;
  /* Everything is checked before anything is written. */
  if (tournament_add_players(r, c->players, 0, err, errlen)) return STUDY_BAD_INPUT;
  if (r->nplayers < 2)
    return error_set(err, errlen, "a study needs at least 2 players (got %d)", r->nplayers),
           STUDY_BAD_INPUT;
  if (tournament_add_variants(r, c->variants, err, errlen)) return STUDY_BAD_INPUT;
  if (!r->nvariants) return error_set(err, errlen, "--variants names no variant"), STUDY_BAD_INPUT;
  int plies;
  char path[PATH_MAX];
  if (tournament_parse_openings(c->openings, &plies, NULL, path, sizeof path, err, errlen))
    return STUDY_BAD_INPUT;
  char format[32];
  snprintf(format, sizeof format, "games:%lld", c->games);
  r->kind = STORE_ROUND_ROBIN;
  r->rounds = 1;
  r->threads = c->threads;
  r->seed = (uint64_t)c->seed;
  if (store_run_set(&r->format, format) || store_run_set(&r->name, c->name) ||
      store_run_set(&r->command, c->command ? c->command : ""))
    return error_set(err, errlen, "out of memory"), STUDY_FAILED;
  variant vs[STORE_MAX_VARIANTS];
  int same_board = 1;
  for (int i = 0; i < r->nvariants; i++) {
    variant_parse(r->variant[i], &vs[i], err, errlen);
    same_board &= vs[i].houses == vs[0].houses && vs[i].seeds == vs[0].seeds;
  }
  if (plies >= 0 && same_board) {
    int rc = shared_openings(c, r, vs, plies, err, errlen);
    if (rc) return rc;
  } else {
    if (store_run_set(&r->openings, c->openings))
      return error_set(err, errlen, "out of memory"), STUDY_FAILED;
    if (plies >= 0 && note)
      snprintf(note, notelen, "the variants differ in houses or seeds: each plays its own random "
                              "openings");
  }
  return tournament_prepare(t, err, errlen) ? STUDY_BAD_INPUT : 0;
}

int study_play(tournament *t, store *db, int bootstrap, atomic_int *stop, char *err,
               size_t errlen) {
  int res = tournament_play(t, db, stop, err, errlen);
  if (res) return res;
  /* The pooled ratings last, so that they stay the run's latest fit. */
  study_options so = {bootstrap, 1, 0};
  study *s = NULL;
  int rc = study_compute(db, t->run.id, &so, &s, err, errlen) ||
                   study_store_ratings(db, s, err, errlen) ||
                   study_store_metrics(db, s, err, errlen)
               ? -1
               : 0;
  study_free(s);
  return rc;
}

int study_resume(store *db, int64_t run_id, int threads, int bootstrap, atomic_int *stop,
                 tournament *t, char *err, size_t errlen) {
  int rc = tournament_reopen(db, run_id, threads, t, err, errlen);
  if (rc) return rc == 1 ? 0 : -1;
  char e[ERROR_MAX];
  rc = study_play(t, db, bootstrap, stop, err, errlen);
  store_run_unlock(db, run_id, e, sizeof e);
  return rc;
}
