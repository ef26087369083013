/* uci.c: the engine-protocol server (`oware uci`): any player of ours, searching in a thread of its own. */
#include "players/uci.h"
#include "core/error.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "core/game.h"
#include "core/clock.h"
#include "core/notation.h"
#include "core/thread.h"
#include "players/book.h"
#include "players/level.h"
#include "players/player.h"
#include "players/tablebase.h"
#include "players/time_budget.h"

/*
 * The dialect, as served here:
 *   uci                 -> id name, id author, option lines, uciok
 *   isready             -> readyok (at once, also during a search)
 *   ucinewgame          -> the player's new_game (game seed = games so far)
 *   setoption name N [value V]
 *                       N is an option of the player type (matched without
 *                       regard to case), `seed` or `Variant`; the player is
 *                       re-created from the rebuilt spec (the value escaped:
 *                       commas, quotes and backslashes are its own). An empty value or
 *                       `<empty>` returns an option to its default. A bad
 *                       value: `info string error: …`, nothing changes.
  *                       Aualé's options OwnBook, UseLeaves, Ponder (check),
 *                       Hash (spin, MiB) and Threads (spin) are offered and accepted when
 *                       the player has no option of that name. OwnBook sets
 *                       the player's book= to the server's book file (true)
 *                       or off (false), UseLeaves its egdb= to the server's
 *                       endgame folder or off, when the player takes that
 *                       option (minimax; mcts takes egdb=); a file or folder
 *                       that cannot be used is an error line and the option
 *                       stays as it was. Otherwise, and for Ponder, they
 *                       change nothing and the `info string` answer says so
 *                       (minimax's own hash= takes `Hash`: it sizes the TT;
 *                       its threads= takes `Threads`: the search's threads,
 *                       which `go infinite` analysis uses too).
 *   position startpos|fen POS [moves FdEe…]
 *                       letters together or apart; an illegal move or a bad
 *                       position string: `info string error: …`, the position
 *                       stays what it was. A new Variant resets it to startpos.
 *   go [depth N] [movetime MS] [nodes N] [infinite]
 *      [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N]
 *                       limits given replace the player's own (nodes are also
 *                       mcts playouts); wtime/winc are South's clock, btime/binc
 *                       North's. Without movetime (or infinite), the clock of
 *                       the side to move (less 20 ms for the protocol) goes to
 *                       the player in player_limits, as the harness's tc= does:
 *                       minimax and mcts share it out themselves
 *                       (players/time_budget.h: an aim of what is left over the
 *                       moves to go, movestogo or guessed from the seeds on
 *                       the board, + ¾ of the increment, stretched when the
 *                       position is hard, never past 4 times the aim or half
 *                       the clock), an engine passes it on. A player whose
 *                       spec sets depth, nodes, playouts or movetime, a
 *                       plug-in, or a go with depth or nodes, keeps those
 *                       limits and is held to the aim by a movetime.
 *                       -> info lines after each iteration (the last one
 *                       the answer's: one more when it differs), then bestmove X
 *                       (`bestmove 0000` when the game is over). Under
 *                       `infinite` the bestmove waits for stop.
 *   stop, quit          end the search (its bestmove is still printed);
 *                       quit, or the end of input, then returns.
 *   Scores: `score cp X` in centiseeds; proven results `score mate N`, N in
 *   moves of the side to move as in chess (a win in p plies is mate (p+1)/2,
 *   a loss in p plies mate -(p+1)/2).
 *   Anything else gets `info string unknown command …` and is ignored.
 */

#define LINE_MAX_LEN 65536 /* longer command lines are refused */
#define GO_TIME_CAP 1000000000000LL /* ms: clocks and increments are capped here */
#define GO_TOGO_CAP 1000000          /* and movestogo here */
/* Of a movetime, what is kept back for the answer's way out (thread join,
 * the bestmove line through the pipe): the time since the `go` line was read
 * is taken off too, so that the bestmove leaves about movetime after `go`
 * arrived (docs/PERFORMANCE.md has the measure). */
#define UCI_RESERVE_MS 1.0
/* Of a clock (wtime/btime), what each move leaves untouched for the time
 * the protocol and the GUI take between moves. */
#define UCI_CLOCK_RESERVE_MS 20

struct uci_server {
  FILE *out;
  pthread_mutex_t out_lock; /* one writer at a time on out */
  atomic_int write_failed;

  /* The player and what re-creates it: prefix ("minimax:" or
   * "plugin:path=X,") + seed + name + the options given so far. */
  player *p;                         /* owned; replaced by setoption */
  const player_type *type;           /* p's type (its option table) */
  char prefix[1100];
  char *val[PLAYER_MAX_OPTIONS];     /* owned strings; NULL = the default */
  unsigned long long seed;
  char name[PLAYER_NAME_MAX];        /* name= of the spec, "" when not given */
  variant v;                         /* the Variant option */
  uint64_t games;                    /* ucinewgame count: the game seed */
  char book[4096];                   /* the file OwnBook turns on */
  char egdb_dir[4096];               /* the folder UseLeaves turns on */

  /* UCI_LimitStrength and UCI_Elo: a level at any Elo of the default
   * levels file (level:elo=N) plays instead of p while limit is on. */
  int has_elo;                       /* the default levels file gives a range */
  long long elo, elo_lo, elo_hi;
  int limit;
  player *limited;                   /* owned; the level at elo, made when limit is on */
  player *searcher;                  /* the player of the search in progress */

  /* The position: where it starts and the moves since (all legal). */
  board start;
  int *moves; /* owned */
  int nmoves;

  /* The search. thread_active and infinite belong to the main thread (the
   * search thread reads infinite, set before it starts); g and lim belong
   * to the search thread while it runs. */
  thread *search;
  int thread_active;
  int infinite;
  game g;
  player_limits lim;
  player_info said; /* the search's last info line (depth 0: none yet) */
  double line_time; /* clock_now() when the current command line was read */
  double go_time;   /* line_time of the search's go: set before its thread starts */
  pthread_mutex_t lock; /* guards stop_requested */
  pthread_cond_t cond;
  int stop_requested;
  int locks; /* how many of out_lock, lock, cond exist */
};
typedef struct uci_server server;

/* Writes one line, whole and flushed. */
static void say(server *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(server *s, const char *fmt, ...) {
  va_list ap;
  pthread_mutex_lock(&s->out_lock);
  va_start(ap, fmt);
  vfprintf(s->out, fmt, ap);
  va_end(ap);
  fputc('\n', s->out);
  if (fflush(s->out) || ferror(s->out)) atomic_store(&s->write_failed, 1);
  pthread_mutex_unlock(&s->out_lock);
}

/* ---- Words of a command line. ---- */

/* The next whitespace-separated word of *p (NUL-terminated in place), or NULL. */
static char *next_word(char **p) {
  char *s = *p;
  while (*s == ' ' || *s == '\t') s++;
  if (!*s) {
    *p = s;
    return NULL;
  }
  char *w = s;
  while (*s && *s != ' ' && *s != '\t') s++;
  if (*s) *s++ = '\0';
  *p = s;
  return w;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
    s[--n] = '\0';
  return s;
}

/* ---- Info lines from the search thread. ---- */

static void format_score(int sc, char *buf, size_t len) {
  const int bound = PLAYER_WIN - 1000;
  if (sc >= bound) snprintf(buf, len, "mate %d", (PLAYER_WIN - sc + 1) / 2);
  else if (sc <= -bound) snprintf(buf, len, "mate -%d", (PLAYER_WIN + sc + 1) / 2);
  else snprintf(buf, len, "cp %d", sc);
}

/* The player's on_info hook: runs in the search thread, whose game is s->g. */
static void on_info(void *ctx, const player_info *in) {
  server *s = ctx;
  char score[32], pv[PLAYER_PV_MAX + 1];
  format_score(in->score, score, sizeof score);
  int n = in->pvlen < PLAYER_PV_MAX ? in->pvlen : PLAYER_PV_MAX;
  for (int i = 0; i < n; i++) pv[i] = notation_move_letter(&s->g.v, in->pv[i]);
  pv[n < 0 ? 0 : n] = '\0';
  long long ms = (long long)(in->seconds * 1000.0);
  long long nps = in->seconds > 0 ? (long long)((double)in->nodes / in->seconds) : 0;
  say(s, "info depth %d seldepth %d score %s nodes %lld nps %lld time %lld%s%s", in->depth,
      in->seldepth, score, in->nodes, nps, ms, n > 0 ? " pv " : "", pv);
  s->said = *in;
}

/* Whether the chosen result (move m, info) differs from the last info line
 * said: a search's last iteration is not always its answer (minimax checks
 * a result at the cap with the history in its keys, fights on over a loss
 * the tables prove and shows that loss, traps=1 picks among tied moves). */
static int answer_differs(const server *s, int m, const player_info *in) {
  const player_info *a = &s->said;
  if (!in->scored) return 0;
  if (!a->depth || a->pvlen < 1 || a->pv[0] != m) return 1;
  return a->depth != in->depth || a->score != in->score || a->pvlen != in->pvlen ||
         memcmp(a->pv, in->pv, (size_t)in->pvlen * sizeof *in->pv);
}

/* ---- The search thread. ---- */

/* Runs the search of s->g under s->lim; frees s->g. */
static void *search_main(void *arg) {
  server *s = arg;
  int m = -1;
  player_info info;
  char err[ERROR_MAX];
  /* Time already spent since `go` was read comes off the move's time (and
   * the reserve) and off a clock. */
  double spent = (clock_now() - s->go_time) * 1000.0;
  if (s->lim.movetime_ms > 0) {
    double left = s->lim.movetime_ms - spent - UCI_RESERVE_MS;
    s->lim.movetime_ms = left < 1 ? 1 : (int)left;
  }
  if (s->lim.clock) s->lim.time_ms -= (long long)spent;
  memset(&s->said, 0, sizeof s->said);
  player_status st = player_choose(s->searcher, &s->g, &s->lim, &m, &info, err, sizeof err);
  /* The last info line before bestmove is the answer's (what a GUI or a
   * tournament's move records read). */
  if (st == PLAYER_OK && answer_differs(s, m, &info)) {
    if (info.pvlen < 1 || info.pv[0] != m) {
      info.pv[0] = m;
      info.pvlen = 1;
    }
    on_info(s, &info);
  }
  if (s->infinite) {
    /* "infinite": the bestmove waits for stop (or quit). */
    pthread_mutex_lock(&s->lock);
    while (!s->stop_requested) pthread_cond_wait(&s->cond, &s->lock);
    pthread_mutex_unlock(&s->lock);
  }
  if (st == PLAYER_OK) {
    say(s, "bestmove %c", notation_move_letter(&s->g.v, m));
  } else {
    say(s, "info string error: the player failed (%s): %s", player_status_name(st), err);
    say(s, "bestmove 0000");
  }
  game_free(&s->g);
  return NULL;
}

static void request_stop(server *s) {
  pthread_mutex_lock(&s->lock);
  s->stop_requested = 1;
  pthread_cond_signal(&s->cond);
  pthread_mutex_unlock(&s->lock);
  if (s->thread_active) atomic_store(&s->searcher->stop, 1);
}

/* Waits for the search to end; an infinite one is told to stop first. */
static void finish_search(server *s) {
  if (!s->thread_active) return;
  if (s->infinite) request_stop(s);
  thread_join(s->search);
  s->search = NULL;
  s->thread_active = 0;
}

/* ---- The player and its options. ---- */

static void install(server *s, player *p) {
  p->on_info = on_info;
  p->info_ctx = s;
  s->p = p;
  s->type = p->type;
}

/* Appends ",key=value" at buf + *n, the value's first l bytes escaped as
 * the spec's grammar reads them back (a comma, a backslash and a double
 * quote each after a backslash: docs/PLAYERS.md), so that what a GUI sets
 * is the value the player gets, whatever it holds. */
static void put_item(char *buf, size_t len, size_t *n, const char *key, const char *v, size_t l) {
  if (*n < len) *n += (size_t)snprintf(buf + *n, len - *n, ",%s=", key);
  for (size_t i = 0; i < l && *n < len; i++) {
    if (strchr(",\\\"", v[i]) && *n + 1 < len) buf[(*n)++] = '\\';
    if (*n + 1 < len) buf[(*n)++] = v[i];
    else *n = len; /* does not fit */
  }
  if (*n < len) buf[*n] = '\0';
}

/* The spec of the current options into buf; -1 when it does not fit. */
static int build_spec(const server *s, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "%sseed=%llu", s->prefix, s->seed);
  if (*s->name) put_item(buf, len, &n, "name", s->name, strlen(s->name));
  for (int i = 0; s->type->options[i].name && n < len; i++) {
    const char *v = s->val[i];
    if (!v) continue;
    /* A list holds its values joined by '\n': one key=value each. */
    while (n < len) {
      const char *nl = strchr(v, '\n');
      size_t l = nl ? (size_t)(nl - v) : strlen(v);
      put_item(buf, len, &n, s->type->options[i].name, v, l);
      if (!nl) break;
      v = nl + 1;
    }
  }
  return n < len ? 0 : -1;
}

/* Reads the options of a freshly created player (its config) into s. */
static int take_options(server *s, const char *spec, char *err, size_t errlen) {
  const player_config *c = &s->p->config;
  s->seed = c->seed;
  /* name= was given when the name is not the spec itself. */
  snprintf(s->name, sizeof s->name, "%s", strcmp(c->name, spec) ? c->name : "");
  const char *colon = strchr(spec, ':');
  size_t tlen = colon ? (size_t)(colon - spec) : strlen(spec);
  if (c->plugin) {
    /* A plug-in is re-created through plugin:path=…, its own table after. */
    const char *p = strstr(spec, "path=");
    size_t l = p ? strcspn(p + 5, ",") : 0;
    if (!p || l + 16 >= sizeof s->prefix) {
      error_set(err, errlen, "uci: cannot find the plug-in path in '%s'", spec);
      return -1;
    }
    snprintf(s->prefix, sizeof s->prefix, "plugin:path=%.*s,", (int)l, p + 5);
  } else {
    snprintf(s->prefix, sizeof s->prefix, "%.*s:", (int)tlen, spec);
  }
  for (int i = 0; s->type->options[i].name; i++) {
    const player_option *o = &s->type->options[i];
    if (!c->v[i].set) continue;
    char num[64];
    const char *text = c->v[i].text;
    if (o->type == PLAYER_OPT_INT) snprintf(num, sizeof num, "%lld", c->v[i].i), text = num;
    else if (o->type == PLAYER_OPT_REAL) snprintf(num, sizeof num, "%.17g", c->v[i].r), text = num;
    if (!text) continue;
    s->val[i] = strdup(text);
    if (!s->val[i]) {
      error_set(err, errlen, "uci: out of memory");
      return -1;
    }
  }
  return 0;
}

/* Options that Aualé (and other GUIs) send, under their names: when the
 * player takes the option `target`, a check turns it on (with the server's
 * file or folder) or off; otherwise they are accepted with a word on what
 * they do, so that a GUI's setoption is never an error. `Hash` and
 * `Threads` (spins) are here for players without hash= or threads=. */
static const struct alien {
  const char *name;   /* as sent */
  const char *target; /* the player option it sets, or NULL */
  const char *note;   /* said when the player has no such option */
  const char *spin;   /* a spin's announcement after "type", NULL for a check */
  long long lo, hi;   /* a spin's range, as announced */
} aliens[] = {
    {"OwnBook", "book", "this player has no opening book: the option is accepted and has no effect", NULL, 0, 0},
    {"UseLeaves", "egdb", "this player reads no endgame databases: the option is accepted and has no effect", NULL,
     0, 0},
    {"Ponder", NULL, "no pondering: 'go ponder' is searched as a normal go; the option has no effect", NULL, 0, 0},
    {"Hash", NULL, "this player has no hash table: the option is accepted and has no effect",
     "spin default 16 min 0 max 16384", 0, 16384},
    {"Threads", NULL, "this player searches on one thread: the option is accepted and has no effect",
     "spin default 1 min 1 max 64", 1, 64},
    {NULL, NULL, NULL, NULL, 0, 0}};

static int type_has_option(const player_type *t, const char *name) {
  for (int k = 0; t->options[k].name; k++)
    if (!strcasecmp(t->options[k].name, name)) return 1;
  return 0;
}

/* setoption for one of aliens[] the player does not have: 0 when it is not
 * one, 1 when handled, 2 when it stands for the player's option *name with
 * the value *value (the server's file or folder, or "" for the default). */
static int set_alien(server *s, const char **name, const char **value) {
  if (type_has_option(s->type, *name)) return 0;
  for (int k = 0; aliens[k].name; k++) {
    if (strcasecmp(aliens[k].name, *name)) continue;
    int check = !aliens[k].spin;
    const char *v = *value;
    char *end = NULL;
    long long x = check || !*v ? 0 : strtoll(v, &end, 10);
    if (check ? (*v && strcasecmp(v, "true") && strcasecmp(v, "false"))
              : (*v && (*end || x < aliens[k].lo || x > aliens[k].hi))) {
      if (check)
        say(s, "info string error: option %s is '%s'; allowed: true or false", aliens[k].name, v);
      else
        say(s, "info string error: option %s is '%s'; allowed: a whole number from %lld to %lld",
            aliens[k].name, v, aliens[k].lo, aliens[k].hi);
      return 1;
    }
    if (aliens[k].target && type_has_option(s->type, aliens[k].target)) {
      int on = !strcasecmp(v, "true");
      *name = aliens[k].target;
      *value = !on ? "off" : !strcmp(aliens[k].target, "book") ? s->book : s->egdb_dir;
      return 2;
    }
    say(s, "info string option %s %s: %s", aliens[k].name, *v ? v : "(default)", aliens[k].note);
    return 1;
  }
  return 0;
}

static void print_options(server *s) {
  const player_config *c = &s->p->config;
  for (int i = 0; s->type->options[i].name; i++) {
    const player_option *o = &s->type->options[i];
    const player_value *v = &c->v[i];
    switch (o->type) {
    case PLAYER_OPT_INT:
      say(s, "option name %s type spin default %lld min %.0f max %.0f", o->name, v->i, o->lo,
          o->hi);
      break;
    case PLAYER_OPT_REAL:
      say(s, "option name %s type string default %g", o->name, v->r);
      break;
    case PLAYER_OPT_CHOICE: {
      char vars[512];
      size_t n = 0;
      vars[0] = '\0';
      for (const char *ch = o->choices; *ch && n < sizeof vars;) {
        size_t l = strcspn(ch, "|");
        n += (size_t)snprintf(vars + n, sizeof vars - n, " var %.*s", (int)l, ch);
        ch += l + (ch[l] == '|');
      }
      say(s, "option name %s type combo default %s%s", o->name, v->text ? v->text : "", vars);
      break;
    }
    case PLAYER_OPT_TEXT:
    case PLAYER_OPT_LIST: {
      /* A list shows its first value; setting it gives it one value. */
      const char *t = v->text && *v->text ? v->text : "<empty>";
      say(s, "option name %s type string default %.*s", o->name, (int)strcspn(t, "\n"), t);
      break;
    }
    }
  }
  /* The options Aualé sends to its engine, and Threads. Hash and Threads
   * are the player's own hash= and threads= when it has them (matched
   * without regard to case); OwnBook and UseLeaves set book= and egdb=
   * (see aliens[]). */
  for (int k = 0; aliens[k].name; k++) {
    if (type_has_option(s->type, aliens[k].name)) continue;
    /* A check that stands for a player's option is on when that option is
     * not off (minimax reads the tables by default: UseLeaves true). */
    const char *t = aliens[k].target && type_has_option(s->type, aliens[k].target)
                        ? player_config_text(c, aliens[k].target)
                        : NULL;
    int on = t && strcmp(t, "off");
    say(s, "option name %s type %s", aliens[k].name,
        aliens[k].spin ? aliens[k].spin : on ? "check default true" : "check default false");
  }
  if (s->has_elo) {
    say(s, "option name UCI_LimitStrength type check default false");
    say(s, "option name UCI_Elo type spin default %lld min %lld max %lld", s->elo_hi, s->elo_lo,
        s->elo_hi);
  }
  say(s, "option name seed type string default %llu", s->seed);
  char vt[256];
  variant_format(&s->v, vt, sizeof vt);
  say(s, "option name Variant type string default %s", vt);
}

static void reset_position(server *s) {
  board_start(&s->start, &s->v);
  s->nmoves = 0;
}

/* A new game under s->v for the current player (and the level playing
 * for it); reports a failure. */
static int new_game(server *s) {
  char err[ERROR_MAX];
  if (player_new_game(s->p, &s->v, s->games, err, sizeof err) ||
      (s->limited && player_new_game(s->limited, &s->v, s->games, err, sizeof err))) {
    say(s, "info string error: %s", err);
    return -1;
  }
  return 0;
}

/* ---- UCI_LimitStrength and UCI_Elo. ---- */

/* The range of level:elo=N in the default levels file, if it has one. */
static void strength_range(server *s) {
  char path[4096], err[ERROR_MAX];
  level_file f;
  double lo, hi;
  if (level_default_path(path, sizeof path, err, sizeof err) || level_load(path, &f, err, sizeof err))
    return;
  if (!level_elo_range(&f, &lo, &hi, err, sizeof err) && ceil(lo) <= floor(hi)) {
    s->has_elo = 1;
    s->elo_lo = (long long)ceil(lo);
    s->elo_hi = s->elo = (long long)floor(hi);
  }
  level_file_free(&f);
}

/* The level at s->elo made again (with the server's seed and variant); on
 * failure an error line, and the old one stays. */
static void make_limited(server *s) {
  char spec[128], err[ERROR_MAX], resolved[LEVEL_SPEC_MAX + 512];
  snprintf(spec, sizeof spec, "level:elo=%lld,seed=%llu", s->elo, s->seed);
  player *np = NULL;
  if (!level_resolve(spec, resolved, sizeof resolved, err, sizeof err))
    np = player_create(resolved, err, sizeof err);
  if (np && player_new_game(np, &s->v, s->games, err, sizeof err)) {
    player_free(np);
    np = NULL;
  }
  if (!np) {
    say(s, "info string error: UCI_Elo %lld: %s", s->elo, err);
    return;
  }
  np->on_info = on_info;
  np->info_ctx = s;
  player_free(s->limited);
  s->limited = np;
  say(s, "info string UCI_Elo %lld plays %s", s->elo, resolved);
}

/* setoption UCI_LimitStrength / UCI_Elo: 0 when name is neither, else 1. */
static int set_strength(server *s, const char *name, const char *value) {
  int is_limit = !strcasecmp(name, "UCI_LimitStrength"), is_elo = !strcasecmp(name, "UCI_Elo");
  if (!is_limit && !is_elo) return 0;
  if (!s->has_elo) {
    say(s, "info string error: option %s: no levels file with levels to interpolate "
           "(docs/LEVELS.md)", name);
    return 1;
  }
  if (is_limit) {
    if (strcasecmp(value, "true") && strcasecmp(value, "false") && *value) {
      say(s, "info string error: option UCI_LimitStrength is '%s'; allowed: true or false", value);
      return 1;
    }
    s->limit = !strcasecmp(value, "true");
  } else {
    char *end;
    errno = 0;
    long long e = *value ? strtoll(value, &end, 10) : s->elo_hi;
    if (*value && (errno || *end || e < s->elo_lo || e > s->elo_hi)) {
      say(s, "info string error: option UCI_Elo is '%s'; allowed: a whole number from %lld to %lld",
          value, s->elo_lo, s->elo_hi);
      return 1;
    }
    if (e != s->elo) {
      s->elo = e;
      player_free(s->limited);
      s->limited = NULL;
    }
  }
  if (s->limit && !s->limited) make_limited(s);
  return 1;
}

/* Sets the player's option `name` (or seed) to value ("" = the default) by
 * re-creating the player; on failure an error line, and nothing changes. */
static void set_player_option(server *s, const char *name, const char *value) {
  char err[ERROR_MAX];
  int i = -1;
  int is_seed = !strcasecmp(name, "seed");
  unsigned long long new_seed = s->seed;
  if (is_seed) {
    char *end;
    errno = 0;
    new_seed = strtoull(value, &end, 10);
    if (!*value || *end || errno || value[0] == '-') {
      say(s, "info string error: option seed is '%s'; allowed: a whole number from 0 to 2^64-1",
          value);
      return;
    }
  } else {
    for (int k = 0; s->type->options[k].name; k++)
      if (!strcasecmp(s->type->options[k].name, name)) i = k;
    if (i < 0) {
      char names[512];
      size_t n = (size_t)snprintf(names, sizeof names, "seed, Variant");
      for (int k = 0; s->type->options[k].name && n < sizeof names; k++)
        n += (size_t)snprintf(names + n, sizeof names - n, ", %s", s->type->options[k].name);
      say(s, "info string error: no option '%s'; options: %s", name, names);
      return;
    }
  }
  /* Try the new spec; keep the old player and values when it fails. */
  char *old_val = NULL, *nv = NULL;
  unsigned long long old_seed = s->seed;
  if (i >= 0) {
    if (*value && !(nv = strdup(value))) {
      say(s, "info string error: out of memory");
      return;
    }
    old_val = s->val[i];
    s->val[i] = nv;
  }
  s->seed = new_seed;
  char spec[4096];
  player *np = NULL;
  if (build_spec(s, spec, sizeof spec)) error_set(err, sizeof err, "the spec gets too long");
  else np = player_create(spec, err, sizeof err);
  if (np && player_new_game(np, &s->v, s->games, err, sizeof err)) {
    player_free(np);
    np = NULL;
  }
  if (!np) {
    say(s, "info string error: %s", err);
    if (i >= 0) {
      s->val[i] = old_val;
      free(nv);
    }
    s->seed = old_seed;
    return;
  }
  free(old_val);
  player_free(s->p);
  install(s, np);
  if (is_seed && s->limited) { /* the level takes the new seed too */
    player_free(s->limited);
    s->limited = NULL;
    make_limited(s);
  }
}

static void cmd_setoption(server *s, char *args) {
  /* setoption name N… [value V…] */
  char *p = args, *w = next_word(&p);
  if (!w || strcmp(w, "name")) {
    say(s, "info string error: expected 'setoption name NAME value VALUE'");
    return;
  }
  char *value = NULL, *name = p;
  for (char *q = strstr(p, "value"); q; q = strstr(q + 1, "value")) {
    int before = q == p || q[-1] == ' ' || q[-1] == '\t';
    int after = q[5] == '\0' || q[5] == ' ' || q[5] == '\t';
    if (before && after) {
      *q = '\0';
      value = q + 5;
      break;
    }
  }
  char empty[1] = "";
  name = trim(name);
  value = trim(value ? value : empty);
  if (!*name) {
    say(s, "info string error: setoption without an option name");
    return;
  }
  if (!strcmp(value, "<empty>")) value += strlen(value);
  finish_search(s);
  char err[ERROR_MAX];
  if (!strcasecmp(name, "Variant")) {
    variant nv, old = s->v;
    if (variant_parse(*value ? value : "abapa", &nv, err, sizeof err)) {
      say(s, "info string error: option Variant: %s", err);
      return;
    }
    s->v = nv;
    if (new_game(s)) {
      s->v = old;
      new_game(s);
      return;
    }
    reset_position(s);
    return;
  }
  if (set_strength(s, name, value)) return;
  const char *oname = name, *ovalue = value;
  if (set_alien(s, &oname, &ovalue) == 1) return;
  set_player_option(s, oname, ovalue);
}

static void cmd_position(server *s, char *args) {
  char *p = args, *w = next_word(&p), err[ERROR_MAX];
  board b;
  if (w && !strcmp(w, "startpos")) {
    board_start(&b, &s->v);
  } else if (w && !strcmp(w, "fen")) {
    char *fen = next_word(&p);
    if (!fen) {
      say(s, "info string error: position fen: the position string is missing");
      return;
    }
    if (notation_parse_position(fen, &s->v, &b, err, sizeof err)) {
      say(s, "info string error: position fen %s: %s", fen, err);
      return;
    }
  } else {
    say(s, "info string error: expected 'position startpos|fen POSITION [moves …]'");
    return;
  }
  w = next_word(&p);
  const char *text = "";
  if (w && !strcmp(w, "moves")) text = p;
  else if (w) {
    say(s, "info string error: position: expected 'moves', not '%s'", w);
    return;
  }
  size_t max = strlen(text) + 1;
  int *mv = malloc(max * sizeof *mv);
  if (!mv) {
    say(s, "info string error: out of memory");
    return;
  }
  int n = notation_parse_moves(text, &s->v, mv, (int)max, err, sizeof err);
  if (n < 0) {
    say(s, "info string error: position: %s", err);
    free(mv);
    return;
  }
  /* Every move must be legal where it is played. */
  game g;
  if (game_init(&g, &s->v, &b)) {
    say(s, "info string error: out of memory");
    free(mv);
    return;
  }
  for (int k = 0; k < n; k++) {
    char legal[64];
    notation_format_legal(&s->v, g.legal, legal, sizeof legal);
    int r = game_play(&g, mv[k]);
    if (r) {
      if (r == -2) say(s, "info string error: out of memory");
      else
        say(s, "info string error: position: move %d (%c) is not legal%s (legal: %s)", k + 1,
            notation_move_letter(&s->v, mv[k]), g.end != BOARD_END_NONE ? "; the game is over" : "",
            legal);
      game_free(&g);
      free(mv);
      return;
    }
  }
  game_free(&g);
  free(s->moves);
  s->moves = mv;
  s->nmoves = n;
  s->start = b;
}

/* A whole number for `go`'s key; -1 (after an error line) when bad. */
static int go_number(server *s, const char *key, const char *w, long long *out) {
  char *end;
  errno = 0;
  long long x = w ? strtoll(w, &end, 10) : 0;
  if (!w || errno || *end || x < 0) {
    say(s, "info string error: go %s: expected a whole number, not '%s'", key, w ? w : "");
    return -1;
  }
  *out = x;
  return 0;
}

/* What `go` says of the clocks: -1 where a side's time is not given. */
typedef struct go_clock {
  long long clock[2], inc[2], togo;
} go_clock;

/* Whether w is one of go's keys that take a whole number. */
static int go_takes_number(const char *w) {
  static const char *const keys[] = {"depth", "movetime", "nodes", "wtime",     "btime",
                                     "winc",  "binc",     "mate",  "movestogo", NULL};
  for (int i = 0; keys[i]; i++)
    if (!strcmp(w, keys[i])) return 1;
  return 0;
}

/* The number x of go's key w into lim or c. */
static void go_set_number(const char *w, long long x, player_limits *lim, go_clock *c) {
  if (!strcmp(w, "depth")) lim->depth = x > 1000 ? 1000 : (int)x;
  else if (!strcmp(w, "movetime")) lim->movetime_ms = x > 100000000 ? 100000000 : (int)x;
  else if (!strcmp(w, "nodes")) lim->nodes = lim->playouts = x;
  else if (!strcmp(w, "wtime")) c->clock[0] = x;
  else if (!strcmp(w, "btime")) c->clock[1] = x;
  else if (!strcmp(w, "winc")) c->inc[0] = x;
  else if (!strcmp(w, "binc")) c->inc[1] = x;
  else if (!strcmp(w, "movestogo")) c->togo = x;
  /* mate N: searched as a normal go */
}

/* The words of a go command. Returns 0, or -1 after an error line. */
static int go_parse(server *s, char *args, player_limits *lim, go_clock *c) {
  char *p = args, *w;
  long long x;
  while ((w = next_word(&p))) {
    if (!strcmp(w, "infinite")) lim->infinite = 1;
    else if (!strcmp(w, "ponder")) continue; /* no pondering: searched as a normal go */
    else if (go_takes_number(w)) {
      if (go_number(s, w, next_word(&p), &x)) return -1;
      if (!x && (!strcmp(w, "depth") || !strcmp(w, "nodes") || !strcmp(w, "movetime"))) {
        /* 0 would mean no limit: the player's own, not what was asked */
        say(s, "info string error: go %s 0: expected 1 or more", w);
        return -1;
      }
      go_set_number(w, x, lim, c);
    } else {
      say(s, "info string ignored go parameter '%s'", w);
    }
  }
  return 0;
}

/* s->g, the game of the last position command. Returns 0, or -1 after the
 * bestmove 0000 of a game that is over or could not be made (s->g freed). */
static int go_game(server *s) {
  if (game_init(&s->g, &s->v, &s->start)) {
    say(s, "info string error: out of memory");
    say(s, "bestmove 0000");
    return -1;
  }
  for (int k = 0; k < s->nmoves; k++)
    if (game_play(&s->g, s->moves[k])) {
      say(s, "info string error: out of memory");
      say(s, "bestmove 0000");
      game_free(&s->g);
      return -1;
    }
  if (s->g.end != BOARD_END_NONE || !s->g.legal) {
    game_free(&s->g);
    say(s, "bestmove 0000");
    return -1;
  }
  return 0;
}

/* Whether p shares out a game clock itself when player_limits hands it one
 * (clock set, no per-move limit): minimax and mcts do (players/time_budget.h),
 * an engine passes it on as wtime/btime, random, greedy and perfect's table
 * moves answer at once (perfect's fallback gets the clock). A spec that sets
 * a per-move limit of its own (depth, nodes, playouts, movetime) is searched
 * by that limit instead, and a plug-in may not look at the clock at all. */
static int shares_clock(const player *p) {
  static const char *const own[] = {"depth", "nodes", "playouts", "movetime", NULL};
  if (p->config.plugin) return 0;
  for (int i = 0; own[i]; i++)
    if (player_config_isset(&p->config, own[i])) return 0;
  return 1;
}

/* The clock of the side to move of g into lim (clock, time_ms less
 * UCI_CLOCK_RESERVE_MS, the opponent's time, both increments, movestogo;
 * wtime/winc are South's). Every input is first capped at GO_TIME_CAP
 * (about 31 years), so that nothing after can overflow whatever the
 * numbers sent (issue 12, defect 9). */
static void go_clock_limits(const game *g, const go_clock *clk, player_limits *lim) {
  const long long cap = GO_TIME_CAP;
  int side = g->pos.side, opp = 1 - side;
  long long own = clk->clock[side] < cap ? clk->clock[side] : cap;
  long long other = clk->clock[opp] < 0 ? own : clk->clock[opp] < cap ? clk->clock[opp] : cap;
  lim->clock = 1;
  lim->time_ms = own - UCI_CLOCK_RESERVE_MS;
  lim->opp_time_ms = other;
  lim->inc_ms = clk->inc[side] < cap ? clk->inc[side] : cap;
  lim->opp_inc_ms = clk->inc[opp] < cap ? clk->inc[opp] : cap;
  lim->movestogo = clk->togo < GO_TOGO_CAP ? (int)clk->togo : GO_TOGO_CAP;
}

/* A clock for a search that will not share it out (shares_clock, or a go
 * with depth or nodes): the search keeps its limits (the go's, else the
 * spec's own) and is held to the clock's share of this move by a movetime,
 * the aim of time_budget_of (the spec's own movetime when shorter). */
static void go_clock_fallback(const player *p, const game *g, player_limits *lim) {
  const player_config *c = &p->config;
  if (!lim->depth && !lim->nodes && !lim->playouts) {
    if (player_config_isset(c, "depth")) lim->depth = (int)player_config_int(c, "depth");
    if (player_config_isset(c, "nodes")) lim->nodes = player_config_int(c, "nodes");
    if (player_config_isset(c, "playouts")) lim->playouts = player_config_int(c, "playouts");
  }
  time_budget b = time_budget_of(lim, g);
  double t = b.soft_ms < 100000000 ? b.soft_ms : 100000000;
  long long own = player_config_isset(c, "movetime") ? player_config_int(c, "movetime") : 0;
  if (own > 0 && own < t) t = (double)own;
  lim->movetime_ms = t < 1 ? 1 : (int)t;
}

/* A level that answers for UCI_LimitStrength keeps its own per-move limits
 * (depth=, nodes=, playouts=, movetime=: they are its strength); a go's
 * depth, nodes or movetime only caps them, so that more time does not make
 * it stronger than its Elo. */
static void go_level_limits(const player *p, player_limits *lim) {
  const player_config *c = &p->config;
  if (player_config_isset(c, "depth")) {
    int own = (int)player_config_int(c, "depth");
    lim->depth = lim->depth && lim->depth < own ? lim->depth : own;
  }
  if (player_config_isset(c, "nodes")) {
    long long own = player_config_int(c, "nodes");
    lim->nodes = lim->nodes && lim->nodes < own ? lim->nodes : own;
  }
  if (player_config_isset(c, "playouts")) {
    long long own = player_config_int(c, "playouts");
    lim->playouts = lim->playouts && lim->playouts < own ? lim->playouts : own;
  }
  if (player_config_isset(c, "movetime")) {
    int own = (int)player_config_int(c, "movetime");
    lim->movetime_ms = lim->movetime_ms && lim->movetime_ms < own ? lim->movetime_ms : own;
  }
}

static void cmd_go(server *s, char *args) {
  finish_search(s);
  player_limits lim = {0};
  go_clock clk = {{-1, -1}, {0, 0}, 0};
  if (go_parse(s, args, &lim, &clk) || go_game(s)) return;
  s->searcher = s->limit && s->limited ? s->limited : s->p;
  if (!lim.movetime_ms && !lim.infinite && clk.clock[s->g.pos.side] >= 0) {
    /* A clock: the player shares its time out itself, or else searches by
     * its limits held to the clock's share of the move. */
    go_clock_limits(&s->g, &clk, &lim);
    if (lim.depth || lim.nodes || !shares_clock(s->searcher))
      go_clock_fallback(s->searcher, &s->g, &lim);
  }
  if (s->searcher == s->limited && !lim.infinite) go_level_limits(s->searcher, &lim);
  s->lim = lim;
  s->infinite = lim.infinite;
  /* The search thread reads the time of its go, never line_time, which
   * the next command line rewrites while it searches. */
  s->go_time = s->line_time;
  pthread_mutex_lock(&s->lock);
  s->stop_requested = 0;
  pthread_mutex_unlock(&s->lock);
  atomic_store(&s->searcher->stop, 0);
  char terr[ERROR_MAX];
  s->search = thread_start(search_main, s, terr, sizeof terr);
  if (!s->search) {
    say(s, "info string error: %s", terr);
    say(s, "bestmove 0000");
    game_free(&s->g);
    return;
  }
  s->thread_active = 1;
}

static void cmd_uci(server *s) {
  say(s, "id name oware %s", s->p->name);
  say(s, "id author the oware harness (oware %s)", OWARE_VERSION);
  print_options(s);
  say(s, "uciok");
}

/* Runs one command line; returns 1 for quit. */
static int command(server *s, char *line) {
  char *p = line, *w = next_word(&p);
  if (!w) return 0;
  if (!strcmp(w, "uci")) cmd_uci(s);
  else if (!strcmp(w, "isready")) say(s, "readyok");
  else if (!strcmp(w, "ucinewgame")) {
    finish_search(s);
    s->games++;
    new_game(s);
    reset_position(s);
  } else if (!strcmp(w, "setoption")) cmd_setoption(s, p);
  else if (!strcmp(w, "position")) cmd_position(s, p);
  else if (!strcmp(w, "go")) cmd_go(s, p);
  else if (!strcmp(w, "stop")) request_stop(s);
  else if (!strcmp(w, "quit")) return 1;
  else if (!strcmp(w, "debug") || !strcmp(w, "ponderhit") || !strcmp(w, "register")) return 0;
  else say(s, "info string unknown command '%.100s' (ignored)", w);
  return 0;
}

uci_server *uci_server_new(const char *spec, FILE *out, char *err, size_t errlen) {
  server *s = calloc(1, sizeof *s);
  if (!s) {
    error_set(err, errlen, "uci: out of memory");
    return NULL;
  }
  s->out = out;
  atomic_init(&s->write_failed, 0);
  variant_default(&s->v);
  reset_position(s);
  if (!pthread_mutex_init(&s->out_lock, NULL)) s->locks++;
  if (s->locks == 1 && !pthread_mutex_init(&s->lock, NULL)) s->locks++;
  if (s->locks == 2 && !pthread_cond_init(&s->cond, NULL)) s->locks++;
  if (s->locks < 3) {
    error_set(err, errlen, "uci: cannot create a mutex");
    uci_server_free(s);
    return NULL;
  }
  /* A level is served as the spec it stands for: setoption rebuilds that. */
  char *resolved = malloc(LEVEL_SPEC_MAX + 512);
  player *p = NULL;
  if (!resolved) error_set(err, errlen, "uci: out of memory");
  else if (!level_resolve(spec, resolved, LEVEL_SPEC_MAX + 512, err, errlen))
    p = player_create(resolved, err, errlen);
  if (!p) {
    free(resolved);
    uci_server_free(s);
    return NULL;
  }
  install(s, p);
  strength_range(s);
  uci_server_set_files(s, NULL, NULL);
  int bad = take_options(s, resolved, err, errlen);
  free(resolved);
  if (bad) {
    uci_server_free(s);
    return NULL;
  }
  return s;
}

void uci_server_set_files(uci_server *s, const char *book_file, const char *egdb_dir) {
  if (book_file) snprintf(s->book, sizeof s->book, "%s", book_file);
  else book_default_path(s->book, sizeof s->book);
  if (egdb_dir) snprintf(s->egdb_dir, sizeof s->egdb_dir, "%s", egdb_dir);
  else tablebase_default_dir(s->egdb_dir, sizeof s->egdb_dir);
}

int uci_server_line(uci_server *s, char *line) {
  s->line_time = clock_now(); /* a movetime counts from here */
  size_t n = strlen(line);
  if (n > LINE_MAX_LEN) {
    say(s, "info string error: a command line of %zu characters (at most %d)", n, LINE_MAX_LEN);
    return 0;
  }
  if (command(s, trim(line))) return 1;
  return atomic_load(&s->write_failed) ? -1 : 0;
}

int uci_server_free(uci_server *s) {
  if (!s) return 0;
  /* quit, or the end of input: stop the search and wait for it. */
  if (s->thread_active) request_stop(s);
  finish_search(s);
  int failed = atomic_load(&s->write_failed);
  player_free(s->p);
  player_free(s->limited);
  for (int i = 0; i < PLAYER_MAX_OPTIONS; i++) free(s->val[i]);
  free(s->moves);
  if (s->locks > 0) pthread_mutex_destroy(&s->out_lock);
  if (s->locks > 1) pthread_mutex_destroy(&s->lock);
  if (s->locks > 2) pthread_cond_destroy(&s->cond);
  free(s);
  return failed ? -1 : 0;
}

int uci_serve(const char *spec, const char *book_file, const char *egdb_dir, FILE *in, FILE *out,
              char *err, size_t errlen) {
  server *s = uci_server_new(spec, out, err, errlen);
  if (!s) return -1;
  uci_server_set_files(s, book_file, egdb_dir);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, in)) >= 0) {
    if (n > LINE_MAX_LEN) {
      say(s, "info string error: a command line of %zd characters (at most %d)", n,
          LINE_MAX_LEN);
      continue;
    }
    if ((size_t)n != strlen(line)) {
      say(s, "info string error: a command line with a NUL byte (ignored)");
      continue;
    }
    if (uci_server_line(s, line)) break;
  }
  free(line);
  if (uci_server_free(s)) {
    error_set(err, errlen, "uci: cannot write the output");
    return -1;
  }
  return 0;
}
