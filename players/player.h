/* player.h: the player interface, option tables, spec parsing and the registry of player types. */
#ifndef OWARE_PLAYER_H
#define OWARE_PLAYER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/time_control.h"
#include "core/variant.h"

#define PLAYER_NAME_MAX 128
#define PLAYER_MAX_OPTIONS 24
#define PLAYER_PV_MAX 64
/* How far past its clock a move may come before it forfeits, by default. */
#define PLAYER_TC_MARGIN_MS 100

/* ---- Options: one table per type, used for validation and for help. ---- */

typedef enum {
  PLAYER_OPT_INT,    /* whole number in [lo, hi] */
  PLAYER_OPT_REAL,   /* real number in [lo, hi] */
  PLAYER_OPT_TEXT,   /* any text (a path, a command) */
  PLAYER_OPT_CHOICE, /* one of choices, "a|b|c" */
  PLAYER_OPT_LIST    /* text that may be given several times (arg=, option=) */
} player_opt_type;

typedef struct player_option {
  const char *name;
  player_opt_type type;
  const char *def; /* default as text; NULL = unset */
  double lo, hi;
  const char *choices;
  const char *help;
} player_option;

/* Parsed option values of one spec. Owned text is freed by player_config_free. */
typedef struct player_value {
  int set;         /* given in the spec (else the default applies) */
  long long i;
  double r;
  char *text;      /* TEXT/CHOICE: the value; LIST: values joined by '\n' */
} player_value;

struct player_type;

typedef struct player_config {
  const struct player_type *type;
  char name[PLAYER_NAME_MAX]; /* name= or the spec itself */
  uint64_t seed;              /* seed= (default 1) */
  time_control tc;            /* tc=: the player's game clock (none when not given) */
  int tc_margin_ms;           /* ms past the clock before a move forfeits (PLAYER_TC_MARGIN_MS) */
  player_value v[PLAYER_MAX_OPTIONS];
  void *plugin;               /* dlopen handle when the type came from a plug-in */
} player_config;

/* Accessors by option name; a name that is not in the type's table reads as
 * unset (0, 0.0, NULL). */
long long player_config_int(const player_config *c, const char *name);
double player_config_real(const player_config *c, const char *name);
/* TEXT/CHOICE value, or NULL when unset with no default. */
const char *player_config_text(const player_config *c, const char *name);
/* The k-th value of a LIST option into buf; returns 0, or -1 past the end. */
int player_config_list(const player_config *c, const char *name, int k, char *buf, size_t len);
/* Whether the option was given in the spec. */
int player_config_isset(const player_config *c, const char *name);

/* ---- Moves and what a search reports. ---- */

typedef enum {
  PLAYER_OK = 0,
  PLAYER_TIMEOUT,  /* no move in time */
  PLAYER_ILLEGAL,  /* answered a move that is not legal */
  PLAYER_CRASH,    /* the engine process died */
  PLAYER_PROTOCOL, /* garbage or no parsable answer */
  PLAYER_ERROR     /* anything else (out of memory, cannot start) */
} player_status;

/* "ok", "timeout", "illegal", "crash", "protocol", "error". */
const char *player_status_name(player_status s);

typedef struct player_info {
  int depth;          /* completed depth (minimax) */
  int seldepth;
  int score;          /* centiseeds, from the mover's side; see PLAYER_WIN */
  int scored;         /* 1 when score is the player's own evaluation; 0 when it
                         reports none (score is then 0): the adjudication of
                         draws and resignations (run/adjudicate.h) skips it */
  long long nodes;    /* minimax nodes or mcts playouts */
  long long playouts;
  double seconds;
  int pv[PLAYER_PV_MAX];
  int pvlen;
} player_info;

/* Scores at or beyond +-(PLAYER_WIN - 1000) are game ends: PLAYER_WIN - n
 * wins in n plies. */
#define PLAYER_WIN 1000000

/* A win the endgame tables prove at ply n, its distance unknown, scores as
 * a game end PLAYER_TABLE_PLIES plies further: PLAYER_WIN - 200 - n (a game
 * end seen in the tree is nearer: no line is 200 plies deep). */
#define PLAYER_TABLE_PLIES 200

/* Limits for one move. When any limit a player type understands is set
 * (minimax: depth, nodes, movetime; mcts: playouts, movetime), they replace
 * that player's own limits for this move, as a UCI `go` command does; all 0
 * means the player's own settings. */
typedef struct player_limits {
  int depth;
  long long nodes;
  long long playouts;
  int movetime_ms;
  int infinite; /* search until player->stop is set */
  /* A game clock the harness keeps (tc=), when clock is set and no limit
   * above is: the mover's and the opponent's time left (ms, may be below 0
   * within the margin), their increments, and the mover's moves until its
   * next period (0: the rest of the game). A player shares its time out
   * itself (players/time_budget.h) and must answer within time_ms. */
  int clock;
  long long time_ms, opp_time_ms;
  long long inc_ms, opp_inc_ms;
  int movestogo;
} player_limits;

/* ---- Parameters: named numbers a live player can change (tuning, calibration). ---- */

/* One parameter a player takes: what set_param accepts and what a tuner
 * may explore. */
typedef struct player_param_info {
  const char *name;        /* NULL ends a list */
  const char *help;
  double lo, hi;           /* the values player_set_param accepts */
  double tune_lo, tune_hi; /* the range a tuner or a calibration explores (inside lo..hi) */
  int integer;             /* a whole number: values are rounded to the nearest */
} player_param_info;

/* A numeric option that a live player can also change is described once,
 * as a macro that applies its argument to the description, e.g.
 *   #define DEPTH(X) X("depth", PLAYER_OPT_INT, "8", 1, 126, "search depth in plies", 1, 20)
 * (name, type INT or REAL, default, the range of values, help, the range a
 * tuner explores). DEPTH(PLAYER_OPTION_OF) is its entry of the option table
 * and DEPTH(PLAYER_PARAM_OF) its entry of the parameter list: the two ranges
 * and helps cannot disagree. */
#define PLAYER_OPTION_OF(name, type, def, lo, hi, help, tune_lo, tune_hi) \
  {name, type, def, lo, hi, NULL, help}
#define PLAYER_PARAM_OF(name, type, def, lo, hi, help, tune_lo, tune_hi) \
  {name, help, lo, hi, tune_lo, tune_hi, (type) == PLAYER_OPT_INT}

/* A value for one parameter, e.g. {"store", 109} or {"depth", 6}. */
typedef struct player_param {
  const char *name;
  double value;
} player_param;

typedef void (*player_info_fn)(void *ctx, const player_info *info);

typedef struct player player;
/* The hooks of a player, which its type's create sets. */
/* Prepares for a new game under v. Called before every game (and at
 * creation with the abapa variant). Returns 0 or -1 with err. */
typedef int player_new_game_fn(player *p, const variant *v, char *err, size_t errlen);
/* Chooses a move for g, which is not over; writes a house index to *move.
 * lim may be NULL. info may be NULL. The move of an in-process player
 * depends only on (seed, game_seed, g, limits) and the earlier calls since
 * new_game (minimax keeps its hash table through a game; with reductions
 * what it holds can change a search), except under movetime. */
typedef player_status player_choose_fn(player *p, const game *g, const player_limits *lim,
                                       int *move, player_info *info, char *err, size_t errlen);
/* Releases data (not p itself). */
typedef void player_destroy_fn(player *p);
/* The parameters set_param takes, terminated by {NULL}; owned by the type
 * (static). */
typedef const player_param_info *player_params_fn(const player *p);
/* Sets the parameter `name` of params() to value, which player_set_param
 * has checked (in lo..hi, rounded when integer); the next move uses it.
 * Not while choose runs. Returns 0, or -1 with err. */
typedef int player_set_param_fn(player *p, const char *name, double value, char *err,
                                size_t errlen);

struct player {
  const struct player_type *type;
  char name[PLAYER_NAME_MAX];
  uint64_t seed;      /* seed= of the spec */
  uint64_t game_seed; /* seed of this game, mixed with seed by new_game */
  variant v;          /* variant of the current game */
  void *data;         /* the type's own state, owned by it */
  player_config config;

  /* The hooks, set by the type's create (player_setup). */
  player_new_game_fn *new_game;   /* may be NULL */
  player_choose_fn *choose;
  player_destroy_fn *destroy;     /* may be NULL */
  player_params_fn *params;       /* may be NULL: the player takes none */
  player_set_param_fn *set_param; /* may be NULL */

  atomic_int stop;        /* set from another thread to end a search early */
  player_info_fn on_info; /* progress reports during a search (may be NULL) */
  void *info_ctx;
  /* The player this one plays for (perfect's fallback: the perfect player),
   * whose stop ends this one's searches too; NULL for most. */
  const struct player *stop_also;
};

/* Whether p's search is asked to end: its own stop, or that of the player it
 * plays for. Searches poll this. */
static inline int player_stopped(const player *p) {
  return atomic_load_explicit(&p->stop, memory_order_relaxed) ||
         (p->stop_also && atomic_load_explicit(&p->stop_also->stop, memory_order_relaxed));
}

/* A player type: one table entry; each player file exports one. */
typedef struct player_type {
  const char *name;
  const char *summary;
  const player_option *options; /* terminated by {NULL} */
  /* Fills p->data and the hooks from p->config. Returns 0 or -1 with err. */
  int (*create)(player *p, char *err, size_t errlen);
  /* Its players run an outside process: a runner keeps one only while it
   * plays (docs/PLAYERS.md). */
  int external;
} player_type;

/* The hooks a player type's create sets (choose at least). */
typedef struct player_hooks {
  player_new_game_fn *new_game;
  player_choose_fn *choose;
  player_destroy_fn *destroy;
  player_params_fn *params;
  player_set_param_fn *set_param;
} player_hooks;

/* For a type's create: sets p's hooks from h and gives p size zeroed bytes
 * of data (p->data). Returns p->data, or NULL with "TYPE: out of memory" in
 * err (p unchanged). */
void *player_setup(player *p, const player_hooks *h, size_t size, char *err, size_t errlen);

/* Built-in types, NULL-terminated (players/player_types.c; the browser
 * build's own list is web/player_types.c). The registry (players/registry.c,
 * above players/level and players/plugin) implements player_find_type,
 * player_parse_spec, player_config_free, player_create, player_free and
 * player_print_help; the rest is players/player.c. */
extern const player_type *const player_types[];

const player_type *player_find_type(const char *name);

/* Whether players of type t take the option `name` (e.g. egdb, weights). */
int player_type_takes(const player_type *t, const char *name);

/* Parses "type:key=value,…" into cfg (checking every key and value against
 * the type's table; seed= and name= are accepted by every type). A level
 * spec, "level:NAME[,file=F]", is resolved first (players/level.h) and the
 * spec it stands for is parsed. tc=CONTROL (core/time_control.h) is read
 * by every type into cfg->tc.
 * Returns 0, or -1 with a message naming the bad key and what is allowed. */
int player_parse_spec(const char *spec, player_config *cfg, char *err, size_t errlen);
/* Frees the option values and unloads the plug-in, if any. */
void player_config_free(player_config *cfg);

/* The half of player_parse_spec below the registry: sets cfg's type to t and
 * its name to spec, then reads items (the text after the spec's ':', NULL
 * when it has none) against t's table and fills in the defaults; cfg->seed
 * and cfg->plugin are set by the caller. Returns 0, or -1 with err and the
 * option values freed (player_config_clear). */
int player_config_parse(const player_type *t, const char *spec, const char *items, player_config *cfg,
                        char *err, size_t errlen);
/* Frees the option values of cfg (not its plug-in). */
void player_config_clear(player_config *cfg);

/* One item of a spec ("key=value") from *pp into buf (room for the whole
 * spec), with the quoting rule of docs/PLAYERS.md resolved: "\," is a comma,
 * "\\" a backslash, "\"" a double quote, and a value that starts with '"'
 * runs to the next unescaped '"' (commas inside are the value's). *pp is
 * left on the ',' that ends the item, or on the end. Returns 0, or -1 with
 * a message for an unclosed quote or text after a closing quote. */
int player_spec_item(const char *spec, const char **pp, char *buf, char *err, size_t errlen);

/* Whether spec is of player type `type` ("type" alone or "type:…"). */
int player_spec_is_type(const char *spec, const char *type);
/* Whether spec gives option key (an item "key=…", quoting as
 * player_spec_item; a spec that does not parse gives none): 1 or 0, -1
 * when out of memory (a rule that rewrites specs must not take it for 0). */
int player_spec_has(const char *spec, const char *key);
/* spec with item ("key=value") added after its options (after ':' when it
 * has none) into *out (malloc'ed): 0, or -1 out of memory (*out NULL). */
int player_spec_append(const char *spec, const char *item, char **out);

/* Creates a player from a spec. Returns NULL with err on failure. */
player *player_create(const char *spec, char *err, size_t errlen);
void player_free(player *p);

/* The parameters of p (its params hook), terminated by {NULL}; never NULL
 * (an empty list when p takes none). */
const player_param_info *player_params(const player *p);

/* The parameter called name in p's list, or NULL. */
const player_param_info *player_find_param(const player *p, const char *name);

/* Sets one parameter on a live player through its set_param hook, after
 * checking that p lists it and that value is finite and in its lo..hi
 * (integers rounded). The player's config (its spec) is not changed.
 * Returns 0, or -1 with a message naming the player and the parameter. */
int player_set_param(player *p, const char *name, double value, char *err, size_t errlen);

/* Sets n parameters in order; stops at the first error. 0 or -1 with err. */
int player_set_params(player *p, const player_param *params, int n, char *err, size_t errlen);

/* Starts a game: sets the variant and game seed, calls new_game. */
int player_new_game(player *p, const variant *v, uint64_t game_seed, char *err, size_t errlen);

/* Asks for a move and checks it is legal (PLAYER_ILLEGAL otherwise). */
player_status player_choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen);

/* A seed for random choices at this position: the same for the same
 * (seed, game seed, position, ply). */
uint64_t player_position_seed(const player *p, const game *g);

/* Writes the help of every type (or of one) with its option table. */
void player_print_help(void *file, const char *type_name);
/* Writes the help of type t: its summary and option table. */
void player_type_help(void *file, const player_type *t);

#endif
