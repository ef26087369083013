/* tournament.c: a tournament's series, openings, colours and seeds, the jobs left to play, and the runner's sink: the one writer, ratings along the run, the SPRT. */
#include "run/tournament.h"
#include "core/error.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "run/match.h"
#include "store/rating_store.h"
#include "run/runner.h"
#include "run/tournament_jobs.h"
#include "stats/sprt.h"
#include "core/array.h"
#include "core/clock.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/rng.h"
#include "players/level.h"
#include "players/player.h"
#include "players/tablebase.h"


/* ---- Configuration ---- */

/* The PLIES of random:PLIES at n (NULL: the default, 2) into *plies; 0, or
 * -1 with err naming text. */
static int random_plies(const char *text, const char *n, int *plies, char *err, size_t errlen) {
  if (!n) n = "2";
  char *end;
  errno = 0;
  long x = strtol(n, &end, 10);
  if (errno || end == n || *end || x < 0 || x > 40) {
    error_set(err, errlen, "openings: '%s': random:PLIES takes a number of plies from 0 to 40", text);
    return -1;
  }
  *plies = (int)x;
  return 0;
}

int tournament_parse_openings(const char *text, int *plies, int *after, char *path,
                              size_t pathlen, char *err, size_t errlen) {
  if (after) *after = 0;
  if (!strncmp(text, "random:", 7) || !strcmp(text, "random")) {
    if (path && pathlen) path[0] = '\0';
    return random_plies(text, text[6] ? text + 7 : NULL, plies, err, errlen);
  }
  if (!strncmp(text, "file:", 5) && text[5]) {
    *plies = -1;
    const char *plus = strstr(text + 5, "+random:");
    size_t len = plus ? (size_t)(plus - (text + 5)) : strlen(text + 5);
    if (!len) {
      error_set(err, errlen, "openings: '%s' names no file", text);
      return -1;
    }
    if (len >= pathlen) {
      error_set(err, errlen, "openings: the file's path is %zu bytes, longer than the %zu that fit", len,
                pathlen - 1);
      return -1;
    }
    memcpy(path, text + 5, len);
    path[len] = '\0';
    if (!plus) return 0;
    if (!after) {
      error_set(err, errlen, "openings: '%s': +random:PLIES after a file is not taken here", text);
      return -1;
    }
    return random_plies(text, plus + 8, after, err, errlen);
  }
  error_set(err, errlen, "openings: '%s' is neither random:PLIES, file:PATH nor file:PATH+random:PLIES",
            text);
  return -1;
}

int tournament_npairings(const tournament *t) {
  int n = t->run.nplayers;
  return t->run.kind != STORE_GAUNTLET ? n * (n - 1) / 2 : n - 1;
}

void tournament_series_identity(const tournament *t, int series_no, int *vi, int *round, int *a,
                            int *b) {
  int np = tournament_npairings(t);
  int pairing = series_no % np;
  int vr = series_no / np;
  *round = vr % t->run.rounds;
  *vi = vr / t->run.rounds;
  if (t->run.kind == STORE_GAUNTLET) {
    *a = 0;
    *b = pairing + 1;
    return;
  }
  int n = t->run.nplayers;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (pairing-- == 0) {
        *a = i;
        *b = j;
        return;
      }
}

/* The lines of an openings file (not blank, not '#') as the run's
 * positions: read once, when the run is made; a resume uses the stored ones. */
static int read_openings_file(store_run *r, const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    error_set(err, errlen, "openings: cannot open '%s': %s", path, strerror(errno));
    return -1;
  }
  char line[512];
  int rc = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    size_t l = strlen(line);
    while (l && (line[l - 1] == '\n' || line[l - 1] == '\r' || line[l - 1] == ' ')) line[--l] = 0;
    if (!l || line[0] == '#') continue;
    if (store_run_add_position(r, line)) {
      error_set(err, errlen, "openings: out of memory");
      rc = -1;
    }
  }
  if (!rc && ferror(f)) {
    error_set(err, errlen, "openings: cannot read '%s': %s", path, strerror(errno));
    rc = -1;
  }
  fclose(f);
  return rc;
}

/* The run's positions, parsed under each variant. */
static int load_openings(tournament *t, const char *path, char *err, size_t errlen) {
  store_run *r = &t->run;
  if (!r->npositions) {
    if (r->id > 0) {
      error_set(err, errlen, "openings: run %lld stored no positions for '%s' (it cannot be resumed without "
          "reading the file again, which could change its games)",
          (long long)r->id, path);
      return -1;
    }
    if (read_openings_file(r, path, err, errlen)) return -1;
    if (!r->npositions) {
      error_set(err, errlen, "openings: '%s' holds no position", path);
      return -1;
    }
  }
  int n = r->npositions;
  for (int v = 0; v < r->nvariants; v++) {
    t->opening_file[v] = malloc((size_t)n * sizeof *t->opening_file[v]);
    if (!t->opening_file[v]) {
      error_set(err, errlen, "openings: out of memory");
      return -1;
    }
    for (int k = 0; k < n; k++) {
      char perr[ERROR_MAX];
      if (notation_parse_position(r->position[k], &t->variants[v], &t->opening_file[v][k], perr,
                                  sizeof perr)) {
        error_set(err, errlen, "openings: %s position %d (variant %s): %s", path, k + 1, r->variant[v], perr);
        return -1;
      }
      uint32_t legal;
      if (board_status(&t->opening_file[v][k], &t->variants[v], &legal) != BOARD_END_NONE) {
        error_set(err, errlen, "openings: %s position %d: the game is already over in this position", path, k + 1);
        return -1;
      }
    }
  }
  t->opening_count = n;
  return 0;
}

/* A new run keeps the content of every weights file its players name, so
 * that a resume can refuse when one has changed (store_run_files_check). */
static int keep_weights_files(store_run *r, char *err, size_t errlen) {
  for (int i = 0; i < r->nplayers; i++) {
    player_config pc;
    char perr[ERROR_MAX];
    if (player_parse_spec(r->player_spec[i], &pc, perr, sizeof perr)) continue; /* said later */
    const char *path =
        player_type_takes(pc.type, "weights") ? player_config_text(&pc, "weights") : NULL;
    int rc = 0, known = 0;
    for (int k = 0; path && k < r->nfiles; k++) known |= !strcmp(r->files[k].path, path);
    if (path && !known && store_run_add_file(r, path, perr, sizeof perr)) {
      error_set(err, errlen, "player %d (%s): %s", i + 1, r->player_name[i], perr);
      rc = -1;
    }
    player_config_free(&pc);
    if (rc) return -1;
  }
  return 0;
}

/* A new run's players that read the endgame tables by default (egdb=auto)
 * get the default folder's tables pinned into their specs (egdb=auto@...),
 * so that wherever and whenever the run is played or resumed they play with
 * those tables or refuse to (players/tablebase.h). */
static int pin_tables(tournament *t, char *err, size_t errlen) {
  store_run *r = &t->run;
  for (int i = 0; i < r->nplayers; i++) {
    size_t len = strlen(r->player_spec[i]) + LEVEL_SPEC_MAX + TABLEBASE_MAX_PINS * 32 + 64;
    char *pinned = malloc(len), perr[ERROR_MAX];
    if (!pinned) return error_set(err, errlen, "out of memory"), -1;
    int rc = tablebase_pin_spec(r->player_spec[i], t->variants, r->nvariants, pinned, len, perr,
                                sizeof perr);
    if (rc) error_set(err, errlen, "player %d (%s): %s", i + 1, r->player_name[i], perr);
    else if (strstr(pinned, "egdb=auto@") && strcmp(pinned, r->player_spec[i]) &&
             store_run_set(&r->player_spec[i], pinned))
      rc = -1, error_set(err, errlen, "out of memory");
    free(pinned);
    if (rc) return -1;
  }
  return 0;
}

int tournament_restore(tournament *t, store *db, char *err, size_t errlen) {
  store_run *r = &t->run;
  if (store_run_files_check(db, r->id, err, errlen)) return -1;
  store_strings_free(r->position, r->npositions);
  r->position = NULL;
  r->npositions = 0;
  return store_run_openings(db, r->id, &r->position, &r->npositions, err, errlen);
}

const char *const tournament_kinds[] = {"round-robin", "gauntlet", NULL};

#define T tournament_config
#define COL SETTINGS_COLUMN
const settings_key tournament_settings[] = {
    SETTINGS_K_TEXT("players", T, players, "'SPEC;SPEC;...'", NULL, "the players", COL),
    SETTINGS_K_TEXT("players-file", T, players_file, "FILE", NULL,
                    "the players, a spec a line (# comments)", COL),
    SETTINGS_K_CHOICE("kind", T, kind, tournament_kinds, "round-robin",
                      "every pairing, or the first player against each other", COL),
    SETTINGS_K_TEXT("format", T, format, "F", "games:2", "the series of a pairing", COL),
    SETTINGS_K_TEXT("variant", T, variants, "V[;V...]", "abapa", "the rule variants", COL),
    SETTINGS_K_TEXT("openings", T, openings, "O", "random:2", "random:PLIES, file:PATH or file:PATH+random:PLIES", COL),
    SETTINGS_K_INT("rounds", T, rounds, 1, 100000, "R", "1", "rounds", COL),
    SETTINGS_K_INT("seed", T, seed, 0, LLONG_MAX, "S", "1", "the run's seed", COL),
    SETTINGS_K_TEXT("name", T, name, "NAME", NULL, "the run's name (default tournament, or sprt)",
                    COL),
    SETTINGS_K_TEXT("sprt", T, sprt, "elo0=E0,elo1=E1[,...]", NULL,
                    "play until the SPRT decides (two players)", 0),
    SETTINGS_K_TEXT("adjudicate", T, adjudicate, "RULE[;RULE...]", NULL,
                    "end games early: egdb[=DIR] (by the endgame tables), draw=PLIES,SCORE,MOVES, "
                    "resign=SCORE,MOVES (by the players' scores, in centiseeds), maxplies=PLIES (a draw)",
                    0),
    SETTINGS_K_TEXT("tc", T, tc, "BASE+INC|MOVES/BASE[+INC]", NULL,
                    "game clock of every player whose spec sets no tc= (seconds: 10+0.1, 40/60)", 0),
    SETTINGS_K_INT("tc-margin", T, tc_margin, 0, 3600000, "MS", "100",
                   "ms a move may come past its clock before it loses on time", 0),
    SETTINGS_END,
};
#undef COL
#undef T

/* One player of a new run: a level stored as the spec it stands for, names distinct. */
static int add_player(store_run *r, const char *spec, char *err, size_t errlen) {
  if (r->nplayers == STORE_MAX_PLAYERS)
    return error_set(err, errlen, "more than %d players", STORE_MAX_PLAYERS), -1;
  /* A resume does not read the levels file again (players/level.h). */
  char resolved[LEVEL_SPEC_MAX + 512], e[ERROR_MAX];
  if (level_resolve(spec, resolved, sizeof resolved, e, sizeof e))
    return error_set(err, errlen, "player %d: %s", r->nplayers + 1, e), -1;
  player_config cfg;
  if (player_parse_spec(resolved, &cfg, e, sizeof e))
    return error_set(err, errlen, "player %d: %s", r->nplayers + 1, e), -1;
  for (int i = 0; i < r->nplayers; i++)
    if (!strcmp(r->player_name[i], cfg.name)) {
      player_config_free(&cfg);
      return error_set(err, errlen, "two players are named '%s': give one of them name=...",
                       r->player_name[i]),
             -1;
    }
  int oom = store_run_add_player(r, cfg.name, resolved);
  player_config_free(&cfg);
  if (oom) return error_set(err, errlen, "out of memory"), -1;
  return 0;
}

int tournament_add_players(store_run *r, const char *text, int lines, char *err, size_t errlen) {
  char *buf = strdup(text), *save = NULL;
  if (!buf) return error_set(err, errlen, "out of memory"), -1;
  const char *sep = lines ? "\n" : ";";
  int rc = 0;
  for (char *tok = strtok_r(buf, sep, &save); tok && !rc; tok = strtok_r(NULL, sep, &save)) {
    while (*tok && strchr(" \t\r\n", *tok)) tok++;
    size_t l = strlen(tok);
    while (l && strchr(" \t\r\n", tok[l - 1])) tok[--l] = 0;
    if (l && tok[0] != '#') rc = add_player(r, tok, err, errlen);
  }
  free(buf);
  return rc;
}

int tournament_add_variants(store_run *r, const char *text, char *err, size_t errlen) {
  char *buf = strdup(text), *save = NULL;
  if (!buf) return error_set(err, errlen, "out of memory"), -1;
  int rc = 0;
  for (char *tok = strtok_r(buf, ";", &save); tok && !rc; tok = strtok_r(NULL, ";", &save)) {
    while (*tok == ' ' || *tok == '\t') tok++;
    if (!*tok) continue;
    variant v;
    char name[256];
    if ((rc = variant_parse(tok, &v, err, errlen))) break;
    rc = -1;
    if (r->nvariants == STORE_MAX_VARIANTS) {
      error_set(err, errlen, "more than %d variants", STORE_MAX_VARIANTS);
      break;
    }
    variant_format(&v, name, sizeof name);
    int twice = -1;
    for (int i = 0; i < r->nvariants; i++)
      if (!strcmp(r->variant[i], name)) twice = i;
    if (twice >= 0) error_set(err, errlen, "variant '%s' is named twice", r->variant[twice]);
    else if (store_run_add_variant(r, name)) error_set(err, errlen, "out of memory");
    else rc = 0;
  }
  free(buf);
  return rc ? -1 : 0;
}

/* The SPRT (parsed into t) and the series format (canonical into fbuf): with
 * an SPRT, games:2 becomes games:20000. 0, or -1 with err. */
static int describe_format(const tournament_config *c, tournament *t, char *fbuf, size_t len,
                           char *err, size_t errlen) {
  const char *format = c->format;
  char e[ERROR_MAX];
  if (c->sprt) {
    if (rating_sprt_parse(c->sprt, &t->sprt, e, sizeof e))
      return error_set(err, errlen, "--sprt: %s", e), -1;
    t->sprt_on = 1;
    if (!strcmp(format, "games:2")) format = "games:20000";
  }
  series_format f;
  if (series_parse(format, &f, e, sizeof e)) return error_set(err, errlen, "--format: %s", e), -1;
  series_format_string(&f, fbuf, len);
  return 0;
}

/* The adjudication of a new run (parsed into t, its tables pinned) and its
 * canonical text into buf, which *out then points to (NULL without one).
 * 0, or -1 with err. */
static int describe_adjudicate(const tournament_config *c, tournament *t, char *buf, size_t len,
                               const char **out, char *err, size_t errlen) {
  *out = NULL;
  if (!c->adjudicate) return 0;
  if (adjudicate_parse(c->adjudicate, &t->adjudicate, err, errlen) ||
      adjudicate_pin(&t->adjudicate, t->variants, t->run.nvariants, err, errlen))
    return -1;
  if (adjudicate_format(&t->adjudicate, buf, len))
    return error_set(err, errlen, "--adjudicate: the rules are too long"), -1;
  t->adjudicate_on = 1;
  *out = buf;
  return 0;
}

/* The run's clock settings into t. 0, or -1 with err naming --tc. */
static int clock_settings(const tournament_config *c, tournament *t, char *err, size_t errlen) {
  char e[ERROR_MAX];
  t->tc_margin_ms = (int)c->tc_margin;
  t->tc_settings = 1;
  if (c->tc && time_control_parse(c->tc, &t->tc, e, sizeof e))
    return error_set(err, errlen, "--tc: %s", e), -1;
  return 0;
}

int tournament_openings_repeat(const tournament *t) {
  if (t->opening_plies >= 0 || t->opening_after > 0) return 0;
  return (long long)t->run.rounds * t->pairs_per_series > t->opening_count ? t->opening_count : 0;
}

int tournament_has_clock(const tournament *t) {
  int on = time_control_on(&t->tc);
  for (int i = 0; i < t->run.nplayers && !on; i++) {
    player_config cfg;
    char e[ERROR_MAX];
    if (player_parse_spec(t->run.player_spec[i], &cfg, e, sizeof e)) continue;
    on = time_control_on(&cfg.tc);
    player_config_free(&cfg);
  }
  return on;
}

int tournament_describe(const tournament_config *c, const char *players, int threads,
                        const char *command, tournament *t, char *err, size_t errlen) {
  store_run *r = &t->run;
  char fbuf[128];
  char abuf[ADJUDICATE_TEXT_MAX + 64];
  tournament_config saved = *c;
  if (tournament_add_players(r, players, c->players_file != NULL, err, errlen) ||
      tournament_add_variants(r, c->variants, err, errlen))
    return -1;
  if (!r->nvariants) return error_set(err, errlen, "--variant names no variant"), -1;
  for (int v = 0; v < r->nvariants; v++)
    if (variant_parse(r->variant[v], &t->variants[v], err, errlen)) return -1;
  if (describe_format(c, t, fbuf, sizeof fbuf, err, errlen) ||
      describe_adjudicate(c, t, abuf, sizeof abuf, &saved.adjudicate, err, errlen))
    return -1;
  if (store_kind_parse(tournament_kinds[c->kind], &r->kind) || r->kind > STORE_GAUNTLET)
    return error_set(err, errlen, "--kind is '%s'; expected round-robin or gauntlet",
                     tournament_kinds[c->kind]),
           -1;
  r->rounds = (int)c->rounds;
  r->threads = threads;
  r->seed = (uint64_t)c->seed;
  /* The command line is a record for people; a resume reads the settings. */
  if (store_run_set(&r->format, fbuf) || store_run_set(&r->openings, c->openings) ||
      store_run_set(&r->name, c->name ? c->name : c->sprt ? "sprt" : "tournament") ||
      store_run_set(&r->command, command ? command : "") ||
      settings_save(tournament_settings, &saved, r, err, errlen))
    return error_set(err, errlen, "out of memory"), -2;
  if (clock_settings(c, t, err, errlen)) return -1;
  return tournament_prepare(t, err, errlen) ? -1 : 0;
}

/* The run loaded with its settings: the SPRT parsed. 0, or -1 with err. */
static int load_run(store *db, int64_t run_id, tournament *t, char *err, size_t errlen) {
  tournament_config c;
  char e[ERROR_MAX];
  if (store_run_load(db, run_id, &t->run, err, errlen) ||
      settings_load(tournament_settings, &t->run, &c, err, errlen))
    return -1;
  if (c.adjudicate) {
    if (adjudicate_parse(c.adjudicate, &t->adjudicate, e, sizeof e))
      return error_set(err, errlen, "run %lld: its adjudication '%s': %s", (long long)run_id,
                       c.adjudicate, e),
             -1;
    t->adjudicate_on = 1;
  }
  if (clock_settings(&c, t, e, sizeof e))
    return error_set(err, errlen, "run %lld: %s", (long long)run_id, e), -1;
  if (!c.sprt) return 0;
  if (rating_sprt_parse_stored(c.sprt, &t->sprt, e, sizeof e))
    return error_set(err, errlen, "run %lld: its SPRT '%s': %s", (long long)run_id, c.sprt, e),
           -1;
  t->sprt_on = 1;
  return 0;
}

int tournament_reopen(store *db, int64_t run_id, int threads, tournament *t, char *err,
                      size_t errlen) {
  store_run *r = &t->run;
  char e[ERROR_MAX];
  if (load_run(db, run_id, t, err, errlen)) return -1;
  if (r->status == STORE_FINISHED) return 1;
  if (store_run_resumable(r, err, errlen)) return -1;
  if (store_run_lock(db, r->id, err, errlen)) return -2;
  if (threads > 0) r->threads = threads;
  int rc = 0;
  if (tournament_restore(t, db, e, sizeof e) || tournament_prepare(t, e, sizeof e)) {
    error_set(err, errlen, "run %lld: %s", (long long)run_id, e);
    rc = -1;
  } else if (store_run_status(db, r->id, STORE_RUNNING, err, errlen)) {
    rc = -2;
  }
  if (rc) store_run_unlock(db, r->id, e, sizeof e);
  return rc;
}

int tournament_resume(store *db, int64_t run_id, int threads, atomic_int *stop, tournament *t,
                      char *err, size_t errlen) {
  int rc = tournament_reopen(db, run_id, threads, t, err, errlen);
  if (rc) return rc == 1 ? 0 : -1;
  char e[ERROR_MAX];
  rc = tournament_play(t, db, stop, err, errlen);
  store_run_unlock(db, run_id, e, sizeof e);
  return rc;
}

int tournament_prepare(tournament *t, char *err, size_t errlen) {
  store_run *r = &t->run;
  for (int v = 0; v < STORE_MAX_VARIANTS; v++) t->opening_file[v] = NULL;
  if (r->nplayers < 2) {
    error_set(err, errlen, "a tournament needs at least 2 players (got %d)", r->nplayers);
    return -1;
  }
  if (r->kind != STORE_ROUND_ROBIN && r->kind != STORE_GAUNTLET) {
    error_set(err, errlen, "kind '%s': expected round-robin or gauntlet", store_kind_name(r->kind));
    return -1;
  }
  if (r->rounds < 1 || r->threads < 1 || r->nvariants < 1) {
    error_set(err, errlen, "rounds, threads and variants must be at least 1");
    return -1;
  }
  for (int v = 0; v < r->nvariants; v++)
    if (variant_parse(r->variant[v], &t->variants[v], err, errlen)) return -1;
  if (series_parse(r->format, &t->format, err, errlen)) return -1;
  char path[PATH_MAX];
  if (tournament_parse_openings(r->openings, &t->opening_plies, &t->opening_after, path,
                                sizeof path, err, errlen))
    return -1;
  if (t->opening_plies < 0 && load_openings(t, path, err, errlen)) return -1;
  if (r->id == 0 && keep_weights_files(r, err, errlen)) return -1;
  if (r->id == 0 && pin_tables(t, err, errlen)) return -1;
  for (int i = 0; i < r->nplayers; i++) {
    char perr[ERROR_MAX];
    player *p = player_create(r->player_spec[i], perr, sizeof perr);
    if (!p) {
      error_set(err, errlen, "player %d (%s): %s", i + 1, r->player_name[i], perr);
      return -1;
    }
    player_free(p);
  }
  if (t->adjudicate_on && !t->adjudicator &&
      adjudicate_open(&t->adjudicate, t->variants, r->nvariants, &t->adjudicator, err, errlen))
    return -1;
  t->pairs_per_series = (series_max_games(&t->format) + 1) / 2;
  /* Sizes are checked before anything is stored: a schedule too large is
   * bad input, not an out-of-memory failure halfway. */
  long long nseries = (long long)r->nvariants * r->rounds * tournament_npairings(t);
  long long games = nseries * series_max_games(&t->format);
  if (games > TOURNAMENT_MAX_GAMES) {
    error_set(err, errlen, "the schedule holds up to %lld games (%lld series of at most %d); a run holds at most "
        "%d: fewer rounds, a smaller format, or several runs",
        games, nseries, series_max_games(&t->format), TOURNAMENT_MAX_GAMES);
    return -1;
  }
  t->nseries = (int)nseries;
  if (t->sprt_on && (r->nplayers != 2 || t->format.kind != SERIES_GAMES)) {
    error_set(err, errlen, "an SPRT takes two players and a games:N format (N is the cap)");
    return -1;
  }
  /* Ratings are stored about ten times along the run, for the charts. */
  long long most = (long long)t->nseries * series_max_games(&t->format);
  t->ratings_every = most >= 20 ? (int)((most + 9) / 10) : 0;
  return 0;
}

void tournament_free(tournament *t) {
  adjudicate_close(t->adjudicator);
  t->adjudicator = NULL;
  for (int v = 0; v < STORE_MAX_VARIANTS; v++) {
    free(t->opening_file[v]);
    t->opening_file[v] = NULL;
  }
  store_run_free(&t->run);
}

void tournament_game_setup(const tournament *t, int series_no, int game_no, board *start,
                           int *a_is_south, uint64_t *seed) {
  int vi, round, a, b;
  tournament_series_identity(t, series_no, &vi, &round, &a, &b);
  const variant *v = &t->variants[vi];
  /* Openings are shared by every pairing and every variant: the k-th game
   * pair of each series of a round uses opening round * pairs_per_series + k. */
  long oi = (long)round * t->pairs_per_series + game_no / 2;
  /* The same draws under every variant: a study of variants compares
   * the same openings (identical where the boards are alike). */
  uint64_t os = rng_mix(rng_mix(t->run.seed, 0x6f70656e00ULL), (uint64_t)oi);
  if (t->opening_plies < 0 && t->opening_after > 0)
    board_random_line(start, v, &t->opening_file[vi][oi % t->opening_count], t->opening_after, os);
  else if (t->opening_plies < 0)
    *start = t->opening_file[vi][oi % t->opening_count];
  else
    board_random_opening(start, v, t->opening_plies, os);
  *a_is_south = game_no % 2 == 0;
  /* The game's seed: from its series' place within its variant, so that
   * every variant plays the same pairings with the same seeds. */
  int per_variant = t->run.rounds * tournament_npairings(t);
  *seed = rng_mix(rng_mix(t->run.seed, 0x67616d6500ULL + (uint64_t)(series_no % per_variant)),
                  (uint64_t)game_no);
}

/* ---- The jobs ---- */

/* Result of a game for series A/B: 0 A won, 1 B won, -1 draw. */
static int ab_result(const store_game *g) {
  if (g->winner < 0) return -1;
  int winner_idx = g->winner == 0 ? g->south_idx : g->north_idx;
  return winner_idx == g->a_idx ? 0 : 1;
}

typedef struct pair_book pair_book;

/* A run being played: the schedule the runner asks, and the sink it feeds. */
typedef struct play {
  tournament *t;
  store *db;
  tournament_jobs jobs; /* the schedule the runner asks */
  /* What is stored (or delivered) so far. */
  series_state *states;   /* per series, as delivered */
  rating_pool rpool;
  pair_book *pb;
  long long stored, total, fresh;
  /* The batch waiting for flush. */
  store_game *batch;
  int nbatch;
  size_t capbatch;
  store_series *done_series;
  int ndone;
  size_t capdone;
  /* Ratings fitted at each checkpoint (every ratings_every games, on the
   * games so far in schedule order), stored with the batch's commit. */
  store_rating *ratings;
  int nratings;
  size_t capratings;
  int decided;
} play;

/* ---- What is stored (resume) ---- */

typedef struct done_games {
  play *pl;
  unsigned char **bits; /* per series: a bit per stored game (allocated lazily) */
  char *err;            /* why collect stopped (store_games_foreach takes a stop for no error) */
  size_t errlen;
  int failed;
} done_games;

static void pair_book_add(tournament *t, pair_book *pb, const store_game *g);

/* A game into the rating pool (players by index = pool index). */
static void pool_add_game(rating_pool *p, const store_game *g) {
  int s = g->south_idx, n = g->north_idx;
  rating_pool_add(p, s, n, g->winner == 0, g->winner < 0, g->winner == 1);
}

/* A stored game into the run's state. Its place is checked against the
 * schedule first (a database is input): a series the run has, a game
 * number its format allows, the series' variant, round and players. */
static int collect(void *ctx, const store_game *g) {
  done_games *d = ctx;
  tournament *t = d->pl->t;
  const int maxg = series_max_games(&t->format);
  if (g->series_no < 0 || g->series_no >= t->nseries || g->game_no < 0 || g->game_no >= maxg) {
    error_set(d->err, d->errlen,
              "run %lld: a stored game, series %d game %d, is not in the run's schedule (series 0 to "
              "%d, games 0 to %d a series)",
              (long long)t->run.id, g->series_no, g->game_no, t->nseries - 1, maxg - 1);
    return d->failed = 1;
  }
  int vi, round, a, b;
  tournament_series_identity(t, g->series_no, &vi, &round, &a, &b);
  if (g->variant_idx != vi || g->round != round || g->a_idx != a || g->b_idx != b) {
    error_set(d->err, d->errlen,
              "run %lld: the stored game %d of series %d has variant %d, round %d, players %d and "
              "%d, where the schedule has variant %d, round %d, players %d and %d",
              (long long)t->run.id, g->game_no, g->series_no, g->variant_idx, g->round, g->a_idx,
              g->b_idx, vi, round, a, b);
    return d->failed = 1;
  }
  series_add(&d->pl->states[g->series_no], &t->format, ab_result(g));
  pool_add_game(&d->pl->rpool, g);
  pair_book_add(t, d->pl->pb, g);
  if (!d->bits[g->series_no]) {
    d->bits[g->series_no] = calloc((size_t)maxg / 8 + 1, 1);
    if (!d->bits[g->series_no]) {
      error_set(d->err, d->errlen, "out of memory");
      return d->failed = 1;
    }
  }
  d->bits[g->series_no][g->game_no / 8] |= (unsigned char)(1u << (g->game_no % 8));
  d->pl->stored++;
  return 0;
}

/* Game pairs (same opening, colours swapped) for the SPRT: the first game's
 * result waits here for the second. */
typedef struct pair_book {
  signed char *first; /* per (series, pair): 0 none, else result + 2 (A's side) */
  int per_series;
} pair_book;

static void pair_book_add(tournament *t, pair_book *pb, const store_game *g) {
  if (!pb->first || g->a_idx != 0 || g->b_idx != 1) return;
  int r = ab_result(g); /* 0 A won, 1 B won, -1 draw */
  int res = r < 0 ? 0 : r == 0 ? 1 : -1;
  size_t at = (size_t)g->series_no * (size_t)pb->per_series + (size_t)(g->game_no / 2);
  if (!pb->first[at]) {
    pb->first[at] = (signed char)(res + 2);
  } else {
    rating_match_add_pair(&t->sprt_match, pb->first[at] - 2, res);
    pb->first[at] = 0;
  }
}

static long long sprt_pairs(const tournament *t) {
  const long long *p = t->sprt_match.penta;
  return p[0] + p[1] + p[2] + p[3] + p[4];
}

/* The run's ratings fitted on its first `games` games (the pool now), kept
 * to be stored with the batch: the fit is of the games the row says, in
 * schedule order, whatever the thread count and however the batches fall. */
static int checkpoint(play *pl, long long games, char *err, size_t errlen) {
  rating_result rr;
  rating_options opt = {0};
  int rc = 0;
  if (rating_fit(&pl->rpool, &opt, &rr, err, errlen)) {
    rating_result_free(&rr);
    return -1;
  }
  if (array_reserve(&pl->ratings, sizeof *pl->ratings, (size_t)pl->nratings + (size_t)rr.n,
                    &pl->capratings, 64)) {
    error_set(err, errlen, "out of memory");
    rc = -1;
  } else {
    char scope[64];
    store_rating *rows = pl->ratings + pl->nratings;
    snprintf(scope, sizeof scope, "run %lld (in progress)", (long long)pl->t->run.id);
    memset(rows, 0, (size_t)rr.n * sizeof *rows);
    rating_to_store(&rr, pl->t->run.id, scope, rows);
    for (int i = 0; i < rr.n; i++) rows[i].games_total = games;
    pl->nratings += rr.n;
  }
  rating_result_free(&rr);
  return rc;
}

/* ---- The sink: games in schedule order into the store ---- */

static int on_game(void *ctx, const runner_result *r, char *err, size_t errlen) {
  play *pl = ctx;
  tournament *t = pl->t;
  const tournament_unit *u = &pl->jobs.units[r->job];
  if (array_reserve(&pl->batch, sizeof *pl->batch, (size_t)pl->nbatch, &pl->capbatch, 256)) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  char *moves = malloc((size_t)r->plies + 1);
  if (!moves) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  for (int i = 0; i < r->plies; i++) moves[i] = notation_move_letter(r->game.v, r->moves[i]);
  moves[r->plies] = '\0';
  store_game *s = &pl->batch[pl->nbatch++];
  memset(s, 0, sizeof *s);
  int vi, round, a, b;
  tournament_series_identity(t, u->series_no, &vi, &round, &a, &b);
  s->run_id = t->run.id;
  s->series_no = u->series_no;
  s->game_no = r->game.game_no;
  s->variant_idx = vi;
  s->round = round;
  s->a_idx = a;
  s->b_idx = b;
  s->south_idx = r->game.south;
  s->north_idx = r->game.north;
  notation_format_position(&r->game.start, r->game.v, NULL, s->opening, sizeof s->opening);
  s->moves = moves;
  s->winner = r->mr.winner;
  s->score2[0] = r->mr.score2[0];
  s->score2[1] = r->mr.score2[1];
  s->plies = r->mr.plies;
  s->end = r->mr.end;
  snprintf(s->detail, sizeof s->detail, "%s", r->mr.detail);
  s->seed = r->game.seed;
  s->seconds = r->mr.seconds;
  if (r->records && !(s->records = move_record_text(r->records, r->plies))) {
    pl->nbatch--;
    free(moves);
    error_set(err, errlen, "out of memory");
    return -1;
  }

  pl->stored++;
  pl->fresh++;
  pool_add_game(&pl->rpool, s);
  series_state *st = &pl->states[s->series_no];
  int was_done = st->done;
  series_add(st, &t->format, ab_result(s));
  if (st->done && !was_done) {
    if (array_reserve(&pl->done_series, sizeof *pl->done_series, (size_t)pl->ndone,
                      &pl->capdone, 64)) {
      error_set(err, errlen, "out of memory");
      return -1;
    }
    pl->done_series[pl->ndone++] = (store_series){t->run.id, s->series_no, vi, round, a, b,
                                                  st->games, st->wins[0], st->wins[1],
                                                  st->draws, st->winner};
  }
  if (t->ratings_every > 0 && pl->stored % t->ratings_every == 0 &&
      checkpoint(pl, pl->stored, err, errlen))
    return -1;
  if (t->sprt_on && !t->sprt_result.decision) {
    long long before = sprt_pairs(t);
    pair_book_add(t, pl->pb, s);
    if (sprt_pairs(t) != before) {
      t->sprt_result = rating_sprt_test(&t->sprt, &t->sprt_match, 0);
      if (t->observer.sprt) t->observer.sprt(t->observer.ctx, &t->sprt_result, sprt_pairs(t));
      if (t->sprt_result.decision) {
        pl->decided = 1;
        return 1;
      }
    }
  }
  return 0;
}

static void free_batch(play *pl) {
  for (int i = 0; i < pl->nbatch; i++) {
    free((char *)pl->batch[i].moves);
    free((char *)pl->batch[i].records);
  }
  pl->nbatch = 0;
  pl->ndone = 0;
}

/* One transaction for the batch: a game counts as done once committed. */
static int on_flush(void *ctx, char *err, size_t errlen) {
  play *pl = ctx;
  int rc = 0;
  /* The series these games finish are committed with them. */
  if ((pl->nbatch || pl->ndone) &&
      store_commit(pl->db, pl->batch, pl->nbatch, pl->done_series, pl->ndone, err, errlen))
    rc = -1;
  free_batch(pl);
  if (!rc && pl->nratings &&
      store_ratings_insert(pl->db, pl->ratings, pl->nratings, err, errlen))
    rc = -1;
  pl->nratings = 0;
  return rc;
}

static void on_progress(void *ctx, const runner_progress *p) {
  play *pl = ctx;
  tournament *t = pl->t;
  if (!t->observer.progress) return;
  tournament_progress tp = {pl->stored, pl->total, pl->fresh, p->seconds, 0};
  t->observer.progress(t->observer.ctx, &tp);
}

/* The units: the games of each series that are not stored yet. */
static int make_units(play *pl, unsigned char **bits, char *err, size_t errlen) {
  tournament *t = pl->t;
  const int maxg = series_max_games(&t->format);
  const int fixed = t->format.kind == SERIES_GAMES;
  size_t most = (size_t)t->nseries * (fixed ? (size_t)(maxg + 1) / 2 : 1);
  pl->jobs.units = malloc((most ? most : 1) * sizeof *pl->jobs.units);
  if (!pl->jobs.units) {
    error_set(err, errlen, "out of memory for the schedule (%zu jobs)", most);
    return -1;
  }
  long long total = 0;
  for (int s = 0; s < t->nseries; s++) {
    if (fixed) {
      for (int k = 0; k < maxg; k += 2) {
        int last = k + 1 < maxg ? k + 1 : k, first = -1;
        for (int j = k; j <= last; j++) {
          int have = bits[s] && (bits[s][j / 8] >> (j % 8) & 1);
          if (!have && first < 0) first = j;
          if (!have) total++;
        }
        if (first < 0) continue;
        /* A pair with its first game stored plays only the second. */
        pl->jobs.units[pl->jobs.nunits++] = (tournament_unit){s, first, last};
      }
    } else {
      series_state st = pl->states[s];
      if (st.done) continue;
      pl->jobs.units[pl->jobs.nunits++] = (tournament_unit){s, st.games, -1};
      total += maxg - st.games;
    }
  }
  pl->total = total + pl->stored;
  if (!fixed) {
    pl->jobs.start_states = malloc((size_t)t->nseries * sizeof *pl->jobs.start_states);
    if (!pl->jobs.start_states) {
      error_set(err, errlen, "out of memory");
      return -1;
    }
    memcpy(pl->jobs.start_states, pl->states, (size_t)t->nseries * sizeof *pl->states);
  }
  return 0;
}

int tournament_play(tournament *t, store *db, atomic_int *stop, char *err, size_t errlen) {
  const int maxg = series_max_games(&t->format);
  const int fixed = t->format.kind == SERIES_GAMES;
  play pl;
  memset(&pl, 0, sizeof pl);
  pl.t = t;
  pl.db = db;
  pair_book pb = {NULL, t->pairs_per_series};
  pl.pb = &pb;
  done_games d = {&pl, NULL, err, errlen, 0};
  int rc = -1, status_set = 0;
  rating_pool_init(&pl.rpool);
  for (int i = 0; i < t->run.nplayers; i++)
    if (rating_pool_player(&pl.rpool, t->run.player_name[i]) != i) {
      error_set(err, errlen, "out of memory");
      goto out;
    }
  memset(&t->sprt_match, 0, sizeof t->sprt_match);
  memset(&t->sprt_result, 0, sizeof t->sprt_result);
  if (t->sprt_on) {
    pb.first = calloc((size_t)t->nseries * (size_t)t->pairs_per_series, 1);
    if (!pb.first) {
      error_set(err, errlen, "out of memory");
      goto out;
    }
  }
  pl.states = calloc((size_t)t->nseries, sizeof *pl.states);
  d.bits = calloc((size_t)t->nseries, sizeof *d.bits);
  if (!pl.states || !d.bits) {
    error_set(err, errlen, "out of memory");
    goto out;
  }
  for (int s = 0; s < t->nseries; s++) series_start(&pl.states[s]);
  if (store_games_foreach(db, t->run.id, collect, &d, err, errlen) || d.failed) goto out;
  {
    /* The rows of the series the stored games finish (a run of an older
     * oware could lose one between its last game and the series row). */
    store_series *rows = malloc((size_t)t->nseries * sizeof *rows);
    int m = 0;
    if (!rows) {
      error_set(err, errlen, "out of memory");
      goto out;
    }
    for (int s = 0; s < t->nseries; s++) {
      const series_state *st = &pl.states[s];
      if (!st->done) continue;
      int vi, round, a, b;
      tournament_series_identity(t, s, &vi, &round, &a, &b);
      rows[m++] = (store_series){t->run.id, s, vi, round, a, b, st->games, st->wins[0],
                                 st->wins[1], st->draws, st->winner};
    }
    int bad = store_commit(db, NULL, 0, rows, m, err, errlen);
    free(rows);
    if (bad) goto out;
  }
  if (t->sprt_on) {
    t->sprt_result = rating_sprt_test(&t->sprt, &t->sprt_match, 0);
    if (t->sprt_result.decision) { /* decided before the stop: nothing left to play */
      char serr[ERROR_MAX];
      rc = store_run_status(db, t->run.id, STORE_FINISHED, serr, sizeof serr) ? -1 : 0;
      if (rc) error_set(err, errlen, "%s", serr);
      status_set = 1;
      goto out;
    }
  }
  if (make_units(&pl, d.bits, err, errlen)) goto out;
  if (t->ratings_every < 0) t->ratings_every = 0;

  pl.jobs.t = t;
  runner_schedule sched = tournament_jobs_schedule(&pl.jobs);
  runner_sink sink = {&pl, on_game, on_flush, on_progress};
  runner_config cfg = {t->run.threads, 0, stop, t->backend};
  runner_stats rs;
  int res = runner_run(&sched, &sink, &cfg, &rs, err, errlen);
  if (t->observer.progress) {
    tournament_progress tp = {pl.stored, pl.total, pl.fresh, rs.seconds, 1};
    t->observer.progress(t->observer.ctx, &tp);
  }
  if (res < 0) {
    rc = -1;
  } else {
    int complete = 1;
    for (int s = 0; s < t->nseries && complete; s++) {
      if (fixed) complete = pl.states[s].games >= maxg;
      else complete = pl.states[s].done;
    }
    rc = complete || (t->sprt_on && t->sprt_result.decision) ? 0 : 1;
  }
  {
    char serr[ERROR_MAX];
    store_status status = rc == 0 ? STORE_FINISHED : rc == 1 ? STORE_INTERRUPTED : STORE_FAILED;
    if (store_run_status(db, t->run.id, status, serr, sizeof serr) && rc >= 0) {
      error_set(err, errlen, "%s", serr);
      rc = -1;
    }
    status_set = 1;
  }
out:
  if (rc < 0 && !status_set) { /* stopped before any game (a stored row refused, ...): not left running */
    char serr[ERROR_MAX];
    store_run_status(db, t->run.id, STORE_FAILED, serr, sizeof serr);
  }
  free_batch(&pl);
  free(pl.batch);
  free(pl.done_series);
  free(pl.ratings);
  free(pl.jobs.units);
  if (d.bits)
    for (int s = 0; s < t->nseries; s++) free(d.bits[s]);
  free(d.bits);
  free(pl.states);
  free(pl.jobs.start_states);
  free(pb.first);
  rating_pool_free(&pl.rpool);
  return rc;
}

/* ---- Standings ---- */

typedef struct tally {
  int n;
  long long *w, *d, *l; /* [i * n + j]: results of i against j */
} tally;

static int count_game(void *ctx, const store_game *g) {
  tally *t = ctx;
  int s = g->south_idx, n = g->north_idx;
  if (s < 0 || n < 0 || s >= t->n || n >= t->n) return 0;
  if (g->winner < 0) {
    t->d[s * t->n + n]++;
    t->d[n * t->n + s]++;
  } else {
    int w = g->winner == 0 ? s : n, l = g->winner == 0 ? n : s;
    t->w[w * t->n + l]++;
    t->l[l * t->n + w]++;
  }
  return 0;
}

int tournament_print_standings(store *db, int64_t run_id, FILE *out, char *err,
                               size_t errlen) {
  store_run *r = malloc(sizeof *r);
  if (!r) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  if (store_run_load(db, run_id, r, err, errlen)) {
    free(r);
    return -1;
  }
  int n = r->nplayers, rc = -1;
  tally t = {n, calloc((size_t)(n * n), sizeof(long long)), calloc((size_t)(n * n), sizeof(long long)),
             calloc((size_t)(n * n), sizeof(long long))};
  int *order = calloc((size_t)n, sizeof *order);
  double *pts = calloc((size_t)n, sizeof *pts);
  long long *games = calloc((size_t)n, sizeof *games);
  if (!t.w || !t.d || !t.l || !order || !pts || !games) {
    error_set(err, errlen, "out of memory");
    goto done;
  }
  if (store_games_foreach(db, run_id, count_game, &t, err, errlen)) goto done;
  int width = 6;
  for (int i = 0; i < n; i++) {
    order[i] = i;
    for (int j = 0; j < n; j++) {
      pts[i] += (double)t.w[i * n + j] + 0.5 * (double)t.d[i * n + j];
      games[i] += t.w[i * n + j] + t.d[i * n + j] + t.l[i * n + j];
    }
    int l = (int)strlen(r->player_name[i]);
    if (l > width) width = l < 40 ? l : 40;
  }
  for (int i = 1; i < n; i++) /* by points, then by name */
    for (int j = i; j > 0; j--) {
      int a = order[j - 1], b = order[j];
      if (pts[a] < pts[b] || (pts[a] == pts[b] && strcmp(r->player_name[a], r->player_name[b]) > 0)) {
        order[j - 1] = b;
        order[j] = a;
      }
    }
  fprintf(out, "Run %lld (%s, %s): standings\n", (long long)run_id, r->name,
          store_status_name(r->status));
  fprintf(out, "%4s  %-*s %7s %7s %7s %7s %8s %7s\n", "rank", width, "player", "games", "wins",
          "draws", "losses", "points", "score%");
  for (int k = 0; k < n; k++) {
    int i = order[k];
    long long w = 0, dr = 0, l = 0;
    for (int j = 0; j < n; j++) w += t.w[i * n + j], dr += t.d[i * n + j], l += t.l[i * n + j];
    fprintf(out, "%4d  %-*.*s %7lld %7lld %7lld %7lld %8.1f %6.1f%%\n", k + 1, width, width,
            r->player_name[i], games[i], w, dr, l, pts[i],
            games[i] ? 100.0 * pts[i] / (double)games[i] : 0.0);
  }
  fprintf(out, "\nCross table: points scored by the row player against the column player (games)\n");
  fprintf(out, "%-*s", width + 6, "");
  for (int k = 0; k < n; k++) fprintf(out, " %12d", k + 1);
  fputc('\n', out);
  for (int k = 0; k < n; k++) {
    int i = order[k];
    fprintf(out, "%4d  %-*.*s", k + 1, width, width, r->player_name[i]);
    for (int c = 0; c < n; c++) {
      int j = order[c];
      long long g = t.w[i * n + j] + t.d[i * n + j] + t.l[i * n + j];
      if (i == j || !g) {
        fprintf(out, " %12s", i == j ? "x" : "-");
      } else {
        char cell[32];
        snprintf(cell, sizeof cell, "%.1f (%lld)", (double)t.w[i * n + j] + 0.5 * (double)t.d[i * n + j], g);
        fprintf(out, " %12s", cell);
      }
    }
    fputc('\n', out);
  }
  rc = 0;
done:
  free(t.w);
  free(t.d);
  free(t.l);
  free(order);
  free(pts);
  free(games);
  store_run_free(r);
  free(r);
  return rc;
}
