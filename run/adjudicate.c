/* adjudicate.c: the rules of --adjudicate: parsed and written back, the tables opened for a run, and one game watched move by move. */
#include "run/adjudicate.h"
#include "core/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"

#define RULES_HELP "egdb[=DIR], draw=PLIES,SCORE,MOVES, resign=SCORE,MOVES or maxplies=PLIES"

/* ---- The rules as text ---- */

/* Reads n comma-separated whole numbers of text into x, each within
 * [lo[i], hi[i]]. 0, or -1 with err naming the rule and its form. */
static int read_numbers(const char *rule, const char *form, const char *text, int n, int *x,
                        const long *lo, const long *hi, char *err, size_t errlen) {
  const char *p = text;
  for (int i = 0; i < n; i++) {
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    int sep_ok = i + 1 < n ? *end == ',' : *end == '\0';
    if (errno || end == p || !sep_ok || v < lo[i] || v > hi[i]) {
      error_set(err, errlen, "--adjudicate: %s=%s: expected %s=%s (whole numbers", rule, text,
                rule, form);
      for (int k = 0; k < n; k++)
        error_append(err, errlen, "%s %ld..%ld", k ? "," : ":", lo[k], hi[k]);
      error_append(err, errlen, ")");
      return -1;
    }
    x[i] = (int)v;
    p = end + 1;
  }
  return 0;
}

/* One rule, "name" or "name=value", into r. */
static int parse_rule(char *rule, adjudicate_rules *r, char *err, size_t errlen) {
  char *eq = strchr(rule, '=');
  const char *value = eq ? eq + 1 : NULL;
  if (eq) *eq = '\0';
  int twice = 0;
  if (!strcmp(rule, "egdb")) {
    twice = r->egdb;
    if (value && !*value)
      return error_set(err, errlen, "--adjudicate: egdb= names no tables (auto or a folder)"), -1;
    if (snprintf(r->tables, sizeof r->tables, "%s", value ? value : "auto") >= (int)sizeof r->tables)
      return error_set(err, errlen, "--adjudicate: egdb=: the folder's name is too long"), -1;
    r->egdb = 1;
  } else if (!strcmp(rule, "draw") && value) {
    static const long lo[3] = {0, 0, 1}, hi[3] = {100000, PLAYER_WIN, 10000};
    int x[3];
    twice = r->draw_moves > 0;
    if (read_numbers("draw", "PLIES,SCORE,MOVES", value, 3, x, lo, hi, err, errlen)) return -1;
    r->draw_plies = x[0], r->draw_score = x[1], r->draw_moves = x[2];
  } else if (!strcmp(rule, "resign") && value) {
    static const long lo[2] = {0, 1}, hi[2] = {PLAYER_WIN, 10000};
    int x[2];
    twice = r->resign_moves > 0;
    if (read_numbers("resign", "SCORE,MOVES", value, 2, x, lo, hi, err, errlen)) return -1;
    r->resign_score = x[0], r->resign_moves = x[1];
  } else if (!strcmp(rule, "maxplies") && value) {
    static const long lo[1] = {1}, hi[1] = {100000};
    twice = r->max_plies > 0;
    if (read_numbers("maxplies", "PLIES", value, 1, &r->max_plies, lo, hi, err, errlen)) return -1;
  } else {
    return error_set(err, errlen, "--adjudicate: '%s%s%s' is not a rule; expected " RULES_HELP,
                     rule, value ? "=" : "", value ? value : ""),
           -1;
  }
  if (twice) return error_set(err, errlen, "--adjudicate: the %s rule is given twice", rule), -1;
  return 0;
}

int adjudicate_parse(const char *text, adjudicate_rules *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  char *buf = strdup(text ? text : ""), *save = NULL;
  if (!buf) return error_set(err, errlen, "out of memory"), -1;
  int rc = 0, rules = 0;
  for (char *tok = strtok_r(buf, ";", &save); tok && !rc; tok = strtok_r(NULL, ";", &save)) {
    while (*tok == ' ' || *tok == '\t') tok++;
    size_t l = strlen(tok);
    while (l && (tok[l - 1] == ' ' || tok[l - 1] == '\t')) tok[--l] = '\0';
    if (!l) continue;
    rc = parse_rule(tok, r, err, errlen);
    rules++;
  }
  free(buf);
  if (!rc && !rules)
    error_set(err, errlen, "--adjudicate names no rule; expected " RULES_HELP), rc = -1;
  return rc;
}

int adjudicate_format(const adjudicate_rules *r, char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  if (r->egdb) at += (size_t)snprintf(buf, len, "egdb=%s", r->tables);
  if (r->draw_moves && at < len)
    at += (size_t)snprintf(buf + at, len - at, "%sdraw=%d,%d,%d", at ? ";" : "", r->draw_plies,
                           r->draw_score, r->draw_moves);
  if (r->resign_moves && at < len)
    at += (size_t)snprintf(buf + at, len - at, "%sresign=%d,%d", at ? ";" : "", r->resign_score,
                           r->resign_moves);
  if (r->max_plies && at < len)
    at += (size_t)snprintf(buf + at, len - at, "%smaxplies=%d", at ? ";" : "", r->max_plies);
  return at < len ? 0 : -1;
}

int adjudicate_pin(adjudicate_rules *r, const variant *vs, int nv, char *err, size_t errlen) {
  if (!r->egdb || strcmp(r->tables, "auto")) return 0;
  char e[ERROR_MAX];
  if (tablebase_pin_tables(vs, nv, r->tables, sizeof r->tables, e, sizeof e))
    return error_set(err, errlen, "--adjudicate egdb: %s", e), -1;
  if (!r->tables[0]) /* no variant of the run can have tables */
    snprintf(r->tables, sizeof r->tables, "auto");
  return 0;
}

/* ---- The tables of a run ---- */

struct adjudicator {
  adjudicate_rules rules;
  int nv;
  tablebase *tb; /* one per variant with the egdb rule, else NULL */
};

void adjudicate_close(adjudicator *a) {
  if (!a) return;
  for (int i = 0; a->tb && i < a->nv; i++) tablebase_free(&a->tb[i]);
  free(a->tb);
  free(a);
}

/* Opens the egdb rule's tables for each variant; at least one must have some. */
static int open_tables(adjudicator *a, const variant *vs, char *err, size_t errlen) {
  char e[ERROR_MAX];
  int any = 0;
  for (int i = 0; i < a->nv; i++) {
    if (tablebase_init(&a->tb[i], a->rules.tables, e, sizeof e) ||
        tablebase_new_game(&a->tb[i], &vs[i], e, sizeof e))
      return error_set(err, errlen, "--adjudicate egdb: %s", e), -1;
    any |= a->tb[i].db != NULL;
  }
  if (!any) {
    char dir[4096];
    if (strncmp(a->rules.tables, "auto", 4)) snprintf(dir, sizeof dir, "%s", a->rules.tables);
    else tablebase_default_dir(dir, sizeof dir);
    return error_set(err, errlen,
                     "--adjudicate egdb: no variant of the run has endgame tables in %s (oware "
                     "egdb build makes them)",
                     dir),
           -1;
  }
  return 0;
}

int adjudicate_open(const adjudicate_rules *r, const variant *vs, int nv, adjudicator **out,
                    char *err, size_t errlen) {
  *out = NULL;
  adjudicator *a = calloc(1, sizeof *a);
  if (!a) return error_set(err, errlen, "out of memory"), -1;
  a->rules = *r;
  a->nv = nv;
  if (r->egdb) {
    a->tb = calloc((size_t)(nv > 0 ? nv : 1), sizeof *a->tb);
    if (!a->tb || open_tables(a, vs, err, errlen)) {
      if (!a->tb) error_set(err, errlen, "out of memory");
      adjudicate_close(a);
      return -1;
    }
  }
  *out = a;
  return 0;
}

/* ---- One game ---- */

void adjudicate_start(const adjudicator *a, const variant *v, adjudicate_game *gs) {
  memset(gs, 0, sizeof *gs);
  if (!a) return;
  gs->rules = &a->rules;
  char key[128], e[ERROR_MAX];
  if (!a->tb || egdb_variant_key(v, key, sizeof key, e, sizeof e)) return;
  for (int i = 0; i < a->nv && !gs->tb; i++)
    if (a->tb[i].db && !strcmp(a->tb[i].key, key)) gs->tb = &a->tb[i];
}

/* The winner of final scores in half seeds. */
static int winner_of(const int score2[2]) {
  return score2[0] > score2[1] ? BOARD_SOUTH : score2[0] < score2[1] ? BOARD_NORTH : GAME_DRAW;
}

/* The half seeds of the board b's mover ends with as the tables decide
 * the game: the exact value (the split one under cycle=split), or for a
 * cycle-sensitive value whose result no cycle rule changes (the stores
 * counted) the bound that decides it: the lower one of a win, the upper one
 * of a loss. -1 when the result depends on the cycle rule. *exact says which. */
static int decided_share(const board *b, const variant *v, const egdb_value *x, int *exact) {
  const int s = b->side, stores2 = 2 * (b->store[s] - b->store[1 - s]);
  *exact = 1;
  if (v->cycle == VARIANT_CYCLE_SPLIT && x->split2 >= 0) return x->split2;
  if (x->lower == x->upper) return 2 * x->lower;
  *exact = 0;
  if (stores2 + 4 * x->lower - 2 * x->n > 0) return 2 * x->lower;
  if (stores2 + 4 * x->upper - 2 * x->n < 0) return 2 * x->upper;
  return -1;
}

int adjudicate_position(const adjudicate_game *gs, const board *b, const variant *v, outcome *r) {
  egdb_value x;
  int exact;
  if (!gs->tb || !tablebase_covers(gs->tb, b, v) || egdb_probe(gs->tb->db, b, &x)) return 0;
  const int mine2 = decided_share(b, v, &x, &exact), s = b->side;
  if (mine2 < 0) return 0; /* the rules of repetition decide: play on */
  r->score2[s] = 2 * b->store[s] + mine2;
  r->score2[1 - s] = 2 * b->store[1 - s] + 2 * x.n - mine2;
  r->winner = winner_of(r->score2);
  r->end = OUTCOME_ADJUDICATED_EGDB;
  const char *who = s == BOARD_SOUTH ? "South" : "North";
  if (exact)
    snprintf(r->detail, sizeof r->detail,
             "the endgame tables: %g of the %d seeds on the board to %s under perfect play",
             mine2 / 2.0, x.n, who);
  else
    snprintf(r->detail, sizeof r->detail,
             "the endgame tables: %s %s whatever the cycle rule, with %s %d of the %d seeds on "
             "the board (%d..%d)",
             who, r->winner == s ? "wins" : "loses", r->winner == s ? "at least" : "at most",
             mine2 / 2, x.n, x.lower, x.upper);
  return 1;
}

/* Ends the game by a score rule: the stores as the scores. */
static int end_by(outcome *r, const board *b, outcome_end end, int winner) {
  r->end = end;
  r->winner = winner;
  r->score2[0] = 2 * b->store[0];
  r->score2[1] = 2 * b->store[1];
  return 1;
}

int adjudicate_move(adjudicate_game *gs, int plies, int mover, const player_info *info,
                    const board *b, outcome *r) {
  const adjudicate_rules *a = gs->rules;
  if (!a) return 0;
  const int scored = info && info->scored, score = scored ? info->score : 0;
  if (a->draw_moves) {
    gs->draw_run = scored && score <= a->draw_score && score >= -a->draw_score ? gs->draw_run + 1 : 0;
    if (plies >= a->draw_plies && gs->draw_run >= 2 * a->draw_moves) {
      snprintf(r->detail, sizeof r->detail, "both scores within +-%d for %d moves each, after ply %d",
               a->draw_score, a->draw_moves, plies);
      return end_by(r, b, OUTCOME_ADJUDICATED_DRAW, GAME_DRAW);
    }
  }
  if (a->resign_moves) {
    int *run = &gs->resign_run[mover];
    *run = scored && score <= -a->resign_score ? *run + 1 : 0;
    if (*run >= a->resign_moves) {
      snprintf(r->detail, sizeof r->detail, "%s's score at or below -%d for %d moves",
               mover == BOARD_SOUTH ? "South" : "North", a->resign_score, a->resign_moves);
      return end_by(r, b, OUTCOME_ADJUDICATED_RESIGN, 1 - mover);
    }
  }
  if (a->max_plies && plies >= a->max_plies) {
    snprintf(r->detail, sizeof r->detail, "%d plies played (maxplies)", plies);
    return end_by(r, b, OUTCOME_ADJUDICATED_DRAW, GAME_DRAW);
  }
  return 0;
}
