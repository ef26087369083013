/* perfect.c: the `perfect` player: endgame-database moves where the tables cover the position, a fallback player elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/error.h"
#include "players/convert.h"
#include "players/player.h"
#include "players/level.h"
#include "players/player.h"
#include "players/tablebase.h"

/*
 * The move: the best database value for the mover. cycle=split variants
 * (awari) rank moves by the split value, which is exact for them. Other
 * variants rank by the lower bound, then the upper bound: where the two
 * differ (a cycle-sensitive position) the value depends on the repetition
 * rule and the game's history, and this player takes the move that is best
 * if endless play were scored against it, the best of those if it were
 * scored for it (a stated fallback, not a proof). Ties: at random from the
 * position seed. Above the tables' seed count, the fallback player moves.
 * A position the lower bound wins (with the stores) is played by its rank
 * instead (players/convert.h): the move that forces the bound soonest, so
 * that the win is converted and not lost to a repetition.
 */

/* Positions the conversion search may visit for one move. */
#define PERFECT_CONVERT_BUDGET 2000000

typedef struct pf {
  tablebase tb;
  player *fallback; /* owned */
} pf;

static player_status choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen) {
  pf *s = p->data;
  if (!s->tb.db) {
    if (s->tb.err[0]) /* missing, or there but truncated, foreign or damaged */
      error_set(err, errlen, "perfect: cannot use the endgame tables in %s: %s", s->tb.dir,
               s->tb.err);
    else
      error_set(err, errlen, "perfect: no endgame tables for this variant in %s (build them with "
               "'oware egdb build')", s->tb.dir);
    return PLAYER_ERROR;
  }
  egdb_value mv[VARIANT_MAX_PITS];
  uint32_t legal;
  if (egdb_probe_moves(s->tb.db, &g->pos, &legal, mv))
    return player_choose(s->fallback, g, lim, move, info, err, errlen);
  const int split = egdb_split(s->tb.db) && g->v.cycle == VARIANT_CYCLE_SPLIT;
  rng r;
  rng_seed(&r, player_position_seed(p, g));
  long best = -1;
  int ties = 0;
  *move = __builtin_ctz(g->legal);
  for (uint32_t l = g->legal; l; l &= l - 1) {
    int m = __builtin_ctz(l);
    long k = split ? (long)mv[m].split2 * 4096 + mv[m].lower * 64 + mv[m].upper
                   : (long)mv[m].lower * 64 + mv[m].upper;
    if (k > best) {
      best = k, ties = 1, *move = m;
    } else if (k == best && rng_below(&r, (uint32_t)++ties) == 0) {
      *move = m;
    }
  }
  int m;
  if (!split &&
      !convert_move(s->tb.db, &g->v, &g->pos, g->hist, g->hist_len, PERFECT_CONVERT_BUDGET, &m))
    *move = m;
  if (info) {
    memset(info, 0, sizeof *info);
    const egdb_value *x = &mv[*move];
    int me = g->pos.store[g->pos.side], you = g->pos.store[1 - g->pos.side];
    /* centiseeds: the final difference with the value played */
    int w2 = split ? x->split2 : 2 * x->lower;
    info->score = 100 * (me - you) + 50 * (2 * w2 - 2 * x->n);
    info->scored = 1;
    /* Every move's value looked up: a search of one ply with exact leaves
     * (depth 0 would say that no search was made, and a game's records
     * would drop the score: core/move_record.h). */
    info->depth = 1;
    info->pv[0] = *move;
    info->pvlen = 1;
  }
  return PLAYER_OK;
}

static int new_game(player *p, const variant *v, char *err, size_t errlen) {
  pf *s = p->data;
  /* Missing tables are reported when a move is asked for: players are
   * created under abapa before they learn the game's variant. */
  s->tb.err[0] = '\0';
  if (tablebase_new_game(&s->tb, v, s->tb.err, sizeof s->tb.err)) s->tb.db = NULL;
  return player_new_game(s->fallback, v, p->game_seed, err, errlen);
}

static void destroy(player *p) {
  pf *s = p->data;
  if (!s) return;
  tablebase_free(&s->tb);
  player_free(s->fallback);
  free(s);
  p->data = NULL;
}

static int create(player *p, char *err, size_t errlen) {
  static const player_hooks hooks = {new_game, choose, destroy, NULL, NULL};
  pf *s = player_setup(p, &hooks, sizeof *s, err, errlen);
  if (!s) return -1;
  const char *dir = player_config_text(&p->config, "egdb");
  if (dir && !strcmp(dir, "off")) {
    error_set(err, errlen, "perfect: egdb=off: this player plays from the endgame tables; give "
                           "egdb=auto or a folder of them");
    destroy(p);
    return -1;
  }
  if (tablebase_init(&s->tb, dir ? dir : "auto", err, errlen)) {
    destroy(p);
    return -1;
  }
  /* The tables are required: missing ones are an error at the first move
   * (a pinned auto keeps its pins, and its variants pinned without tables
   * are that error too). */
  if (s->tb.mode != TABLEBASE_PINNED) s->tb.mode = TABLEBASE_DIR;
  const char *fb = player_config_text(&p->config, "fallback");
  if (!strncmp(fb, "perfect", 7)) {
    error_set(err, errlen, "perfect: fallback '%s' may not be another perfect player", fb);
    destroy(p);
    return -1;
  }
  char e[ERROR_MAX];
  /* The fallback reads the same tables when it takes egdb= and its spec
   * leaves it out, if they are the default folder's (auto, or a run's pin
   * of it, which then holds for both). A folder named by egdb=DIR is not
   * passed on: the fallback is made under abapa, and a folder with only
   * another variant's tables would make it fail. */
  const char *tables = dir ? dir : "auto";
  char *fbspec = malloc(strlen(fb) + strlen(tables) + 16);
  player_config fc;
  if (!fbspec) {
    error_set(err, errlen, "perfect: out of memory");
    destroy(p);
    return -1;
  }
  strcpy(fbspec, fb);
  if (!player_parse_spec(fb, &fc, e, sizeof e)) {
    if (player_type_takes(fc.type, "egdb") && !player_config_isset(&fc, "egdb") && !strncmp(tables, "auto", 4) &&
        !level_is_spec(fb))
      sprintf(fbspec + strlen(fbspec), "%segdb=%s", strchr(fb, ':') ? "," : ":", tables);
    player_config_free(&fc);
  }
  s->fallback = player_create(fbspec, e, sizeof e);
  free(fbspec);
  if (!s->fallback) {
    error_set(err, errlen, "perfect: fallback '%s': %s", fb, e);
    destroy(p);
    return -1;
  }
  s->fallback->stop_also = p; /* a stop of this player's search ends the fallback's */
  return 0;
}

static const player_option options[] = {
    {"egdb", PLAYER_OPT_TEXT, "auto", 0, 0, NULL,
     "folder of the endgame tables (auto: ~/.cache/oware/egdb; not off: this player plays from them)"},
    {"fallback", PLAYER_OPT_TEXT, "minimax:depth=8", 0, 0, NULL,
     "player for positions with more seeds than the tables hold"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const player_type player_perfect = {
    "perfect", "endgame-database moves (oware egdb build); a fallback player above the tables",
    options, create, 0};
