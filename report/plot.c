/* plot.c: gathers a run's statistics, writes the chart data files and runs gnuplot (fork/exec) on scripts/KIND.gp. */
#include "report/plot.h"
#include "core/error.h"
#include "core/array.h"
#include "core/outfile.h"
#include "core/path.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/rating_store.h"
#include "stats/proportion.h"
#include "tuner/tuning_store.h"


const char *plot_end_name(int e) {
  if (e == PLOT_END_FORFEIT) return "forfeit";
  if (e == PLOT_END_OTHER) return "other";
  if (e >= PLOT_END_ADJ_EGDB && e <= PLOT_END_ADJ_RESIGN)
    return outcome_end_name((outcome_end)(OUTCOME_ADJUDICATED_EGDB + e - PLOT_END_ADJ_EGDB));
  return e >= 0 && e < PLOT_END_FORFEIT ? outcome_end_name((outcome_end)(OUTCOME_MAJORITY + e)) : "?";
}

int plot_end_shown(const plot_run *r, int e) {
  if (e < PLOT_END_ADJ_EGDB || e == PLOT_END_OTHER) return 1;
  long long n = 0;
  for (int v = 0; v < r->run.nvariants; v++) n += r->variant_ends[v][e];
  return n > 0;
}

static const char *const kind_names[PLOT_NKINDS] = {"elo",  "ratings", "matrix", "length",
                                                    "ends", "tuning",  "time"};
static const char *const kind_titles[PLOT_NKINDS] = {
    "Elo ladder", "Ratings over the run", "Score matrix", "Game length", "End reasons", "Tuning",
    "Time per move"};

static int kind_index(unsigned kind) {
  for (int i = 0; i < PLOT_NKINDS; i++)
    if (kind == 1u << i) return i;
  return -1;
}

const char *plot_kind_name(unsigned kind) {
  int i = kind_index(kind);
  return i < 0 ? "?" : kind_names[i];
}

int plot_kind_parse(const char *text, unsigned *kinds, char *err, size_t errlen) {
  *kinds = 0;
  const char *p = text;
  while (1) {
    size_t n = strcspn(p, ",");
    int found = 0;
    if (n == 3 && !strncmp(p, "all", 3)) {
      *kinds |= PLOT_ALL;
      found = 1;
    }
    for (int i = 0; i < PLOT_NKINDS && !found; i++)
      if (strlen(kind_names[i]) == n && !strncmp(p, kind_names[i], n)) {
        *kinds |= 1u << i;
        found = 1;
      }
    if (!found) {
      error_set(err, errlen, "unknown chart kind '%.*s'; expected elo, ratings, matrix, length, ends, tuning, time or all",
          (int)n, p);
      return -1;
    }
    if (!p[n]) break;
    p += n + 1;
  }
  return 0;
}

/* ---- Gathering a run ---- */

int plot_pair_index(const plot_run *r, int i, int j) {
  if (i > j) {
    int t = i;
    i = j;
    j = t;
  }
  /* pairs (0,1) (0,2) … (0,n-1) (1,2) …: row i starts after i rows of n-1, n-2, … */
  int n = r->nplayers;
  return i * (2 * n - i - 1) / 2 + (j - i - 1);
}

static int end_index(outcome_end end) {
  if (end >= OUTCOME_MAJORITY && end <= OUTCOME_PLY_LIMIT) return end - OUTCOME_MAJORITY;
  if (outcome_is_adjudicated(end)) return PLOT_END_ADJ_EGDB + (end - OUTCOME_ADJUDICATED_EGDB);
  return outcome_is_forfeit(end) ? PLOT_END_FORFEIT : PLOT_END_OTHER;
}

typedef struct loader {
  plot_run *r;
  long long cap;
  char *err;
  size_t errlen;
} loader;

/* The game's move records, when it has them, into the players' time per
 * move number. 0, or 1 with err (records that do not read). */
static int load_times(loader *l, const store_game *g) {
  plot_run *r = l->r;
  move_record *rec;
  char e[ERROR_MAX];
  int has = store_game_records(g, &rec, e, sizeof e);
  if (has < 0) {
    error_set(l->err, l->errlen, "game %d of series %d: %s", g->game_no, g->series_no, e);
    return 1;
  }
  if (!has) return 0;
  size_t olen = strlen(g->opening);
  int first = olen && g->opening[olen - 1] == 'N' ? 1 : 0; /* the side to move at the start */
  for (int i = 0; i < g->plies; i++) {
    int side = (first + i) % 2, k = i / 2;
    int who = side == 0 ? g->south_idx : g->north_idx;
    if (k >= PLOT_TIME_MOVES) break;
    r->time_ms[who][k] += (double)rec[i].ms;
    r->time_n[who][k]++;
  }
  r->time_games++;
  free(rec);
  return 0;
}

static int load_game(void *ctx, const store_game *g) {
  loader *l = ctx;
  plot_run *r = l->r;
  int n = r->nplayers;
  if (g->south_idx < 0 || g->south_idx >= n || g->north_idx < 0 || g->north_idx >= n ||
      g->south_idx == g->north_idx || g->variant_idx < 0 || g->variant_idx >= r->run.nvariants) {
    error_set(l->err, l->errlen, "game %d of series %d: bad player or variant index", g->game_no,
             g->series_no);
    return 1;
  }
  if (r->nlengths == l->cap) {
    long long cap = l->cap ? 2 * l->cap : 1024;
    int *len = realloc(r->length, (size_t)cap * sizeof *len);
    if (len) r->length = len;
    unsigned char *var = realloc(r->length_variant, (size_t)cap);
    if (var) r->length_variant = var;
    int *pr = realloc(r->length_pair, (size_t)cap * sizeof *pr);
    if (pr) r->length_pair = pr;
    if (!len || !var || !pr) {
      error_set(l->err, l->errlen, "out of memory");
      return 1;
    }
    l->cap = cap;
  }
  int s = g->south_idx, nn = g->north_idx, e = end_index(g->end);
  int pi = plot_pair_index(r, s, nn);
  plot_pair *p = &r->pair[pi];
  p->games++;
  p->plies += g->plies;
  p->ends[e]++;
  plot_player *ps = &r->player[s], *pn = &r->player[nn];
  ps->games++;
  pn->games++;
  if (g->winner < 0) {
    p->draws++;
    ps->draws++, pn->draws++;
    ps->points += 0.5, pn->points += 0.5;
  } else {
    int w = g->winner == 0 ? s : nn, lo = g->winner == 0 ? nn : s;
    if (w == p->a) p->wins_a++;
    else p->wins_b++;
    r->player[w].wins++, r->player[w].points += 1.0;
    r->player[lo].losses++;
  }
  r->variant_games[g->variant_idx]++;
  r->variant_plies[g->variant_idx] += g->plies;
  r->variant_ends[g->variant_idx][e]++;
  r->length[r->nlengths] = g->plies;
  r->length_variant[r->nlengths] = (unsigned char)g->variant_idx;
  r->length_pair[r->nlengths] = pi;
  r->nlengths++;
  if (g->plies > r->max_plies) r->max_plies = g->plies;
  r->games++;
  return load_times(l, g);
}

static int load_rating(void *ctx, const store_rating *sr) { return array_push(ctx, sr); }

static int load_tuning(void *ctx, const tuning_row *t) { return array_push(ctx, t); }

static int player_by_name(const plot_run *r, const char *name) {
  for (int i = 0; i < r->nplayers; i++)
    if (!strcmp(r->run.player_name[i], name)) return i;
  return -1;
}

/* 95% Wilson score interval of points out of games (stats/proportion.h), in %. */
static void wilson(double points, long long games, double *lo, double *hi) {
  proportion_interval x;
  proportion_wilson(points, games, &x);
  *lo = 100.0 * x.lo;
  *hi = 100.0 * x.hi;
}

/* Elo for every player: the latest stored fit when it covers every game of
 * the run, else a fit of the run's games (store/rating_store.h, stats/elo_fit.h). */
static void choose_elo(store *db, plot_run *r) {
  int n = r->nplayers;
  if (!r->games) {
    snprintf(r->elo_source, sizeof r->elo_source, "no Elo: the run has no games yet");
    return;
  }
  /* Every player who has played needs an Elo; one who has not gets none. */
  int needed = 0;
  for (int i = 0; i < n; i++) needed += r->player[i].games > 0;
  if (r->nlatest) {
    int found = 0;
    for (int k = 0; k < r->nlatest; k++) {
      int i = player_by_name(r, r->latest[k].player);
      found += i >= 0 && r->player[i].games > 0;
    }
    if (found == needed && r->latest[0].games_total >= r->games) {
      for (int k = 0; k < r->nlatest; k++) {
        int i = player_by_name(r, r->latest[k].player);
        if (i < 0 || !r->player[i].games) continue;
        plot_player *p = &r->player[i];
        p->has_elo = 1;
        p->elo = r->latest[k].elo, p->lo = r->latest[k].lo, p->hi = r->latest[k].hi;
        p->bound = r->latest[k].bound;
      }
      r->has_elo = 1;
      rating_scale own;
      rating_scale_of_scope(r->latest[0].scope, &own);
      snprintf(r->elo_source, sizeof r->elo_source,
               "stored ratings (fit %lld, %s, of %lld games, %s%s)", (long long)r->latest[0].batch,
               r->latest[0].scope, r->latest[0].games_total, r->latest[0].created,
               rating_scale_same(&own, &r->scale) ? "" : "; fitted again on this scale");
      return;
    }
  }
  char ferr[400] = "";
  rating_pool pool;
  rating_pool_init(&pool);
  rating_result res = {0};
  rating_options ro = {r->scale.anchor[0] ? r->scale.anchor : NULL, r->scale.elo, 0, 0, 0};
  int ok = !rating_pool_load(&pool, db, &r->run.id, 1, NULL, ferr, sizeof ferr) &&
           !rating_fit(&pool, &ro, &res, ferr, sizeof ferr);
  if (ok) {
    int found = 0;
    for (int k = 0; k < res.n; k++) {
      int i = player_by_name(r, res.player[k].name);
      if (i < 0 || !r->player[i].games) continue;
      found++;
      r->player[i].has_elo = 1;
      r->player[i].elo = res.player[k].elo;
      r->player[i].lo = res.player[k].lo;
      r->player[i].hi = res.player[k].hi;
      r->player[i].bound = res.player[k].bounded;
    }
    if (found == needed) {
      r->has_elo = 1;
      snprintf(r->elo_source, sizeof r->elo_source,
               "Bradley-Terry maximum likelihood fit of the run's %lld games (relative to %s)%s",
               r->games, r->scale_text,
               r->nlatest ? "; the latest stored ratings cover fewer games" : "");
    } else {
      for (int i = 0; i < n; i++) r->player[i].has_elo = 0;
      error_set(ferr, sizeof ferr, "the fit has %d of the %d players who played", found, needed);
      ok = 0;
    }
  }
  if (!ok)
    snprintf(r->elo_source, sizeof r->elo_source,
             "no Elo (%s): score %% with 95%% Wilson intervals instead", ferr);
  rating_result_free(&res);
  rating_pool_free(&pool);
}

/* Whether two rating scopes are the same, a fit stored while the run was
 * being played ("run 3 (in progress)") counting as one of its scope, and
 * the scale a fit was anchored on ("; anchor greedy = 0") not counting. */
static int same_scope(const char *a, const char *b) {
  static const char suffix[] = " (in progress)";
  size_t la = rating_scale_scope_length(a), lb = rating_scale_scope_length(b);
  size_t ls = sizeof suffix - 1;
  if (la >= ls && !strncmp(a + la - ls, suffix, ls)) la -= ls;
  if (lb >= ls && !strncmp(b + lb - ls, suffix, ls)) lb -= ls;
  return la == lb && !strncmp(a, b, la);
}

/* The one Elo scale of the charts and the report (plot_run.scale), and the
 * stored fits put on it. 0, or -1 with err. */
static int apply_scale(store *db, plot_run *r, const plot_options *opt, char *err,
                       size_t errlen) {
  if (opt && opt->anchor) {
    if (player_by_name(r, opt->anchor) < 0) {
      error_set(err, errlen, "unknown anchor '%s': not a player of run %lld", opt->anchor,
                (long long)r->run.id);
      return -1;
    }
    snprintf(r->scale.anchor, sizeof r->scale.anchor, "%s", opt->anchor);
    r->scale.elo = opt->anchor_elo;
  } else if (r->nlatest) {
    rating_scale_of_scope(r->latest[0].scope, &r->scale);
  }
  rating_scale_describe(&r->scale, r->scale_text, sizeof r->scale_text);
  if (rating_scale_apply(db, &r->run, &r->scale, r->history, &r->nhistory, &r->refitted, err,
                         errlen) ||
      rating_scale_apply(db, &r->run, &r->scale, r->latest, &r->nlatest, NULL, err, errlen))
    return -1;
  if (!r->nlatest) r->nhistory = 0; /* the chart is of the latest fit's scope */
  return 0;
}

int plot_run_load(store *db, int64_t run_id, plot_run **out, char *err, size_t errlen) {
  return plot_run_load_opt(db, run_id, NULL, out, err, errlen);
}

int plot_run_load_opt(store *db, int64_t run_id, const plot_options *opt, plot_run **out,
                      char *err, size_t errlen) {
  *out = NULL;
  plot_run *r = calloc(1, sizeof *r);
  if (!r) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  if (store_run_load(db, run_id, &r->run, err, errlen)) goto fail;
  int n = r->nplayers = r->run.nplayers;
  r->npairs = n * (n - 1) / 2;
  if (r->npairs) {
    r->pair = calloc((size_t)r->npairs, sizeof *r->pair);
    if (!r->pair) {
      error_set(err, errlen, "out of memory");
      goto fail;
    }
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) {
        plot_pair *p = &r->pair[plot_pair_index(r, i, j)];
        p->a = i, p->b = j;
      }
  }
  loader l = {r, 0, err, errlen};
  err[0] = 0;
  if (store_games_foreach(db, run_id, load_game, &l, err, errlen) || err[0]) {
    if (!err[0]) error_set(err, errlen, "cannot read the games of run %lld", (long long)run_id);
    goto fail;
  }
  for (int i = 0; i < n; i++) {
    r->order[i] = i;
    wilson(r->player[i].points, r->player[i].games, &r->player[i].wilson_lo,
           &r->player[i].wilson_hi);
  }
  for (int i = 1; i < n; i++) /* by points, then by name, as the standings of the tournament */
    for (int j = i; j > 0; j--) {
      int a = r->order[j - 1], b = r->order[j];
      double pa = r->player[a].points, pb = r->player[b].points;
      if (pa < pb || (pa == pb && strcmp(r->run.player_name[a], r->run.player_name[b]) > 0)) {
        r->order[j - 1] = b;
        r->order[j] = a;
      }
    }
  /* Stored ratings: the latest fit, and the fits of its scope. */
  array rl = {.size = sizeof(store_rating)};
  if (store_ratings_foreach(db, run_id, load_rating, &rl, err, errlen) || rl.failed) {
    if (rl.failed) error_set(err, errlen, "out of memory");
    free(rl.items);
    goto fail;
  }
  const store_rating *rv = rl.items;
  if (rl.n) {
    int64_t last = rv[rl.n - 1].batch;
    const char *scope = rv[rl.n - 1].scope;
    r->latest = malloc((size_t)rl.n * sizeof *r->latest);
    r->history = malloc((size_t)rl.n * sizeof *r->history);
    if (!r->latest || !r->history) {
      free(rl.items);
      error_set(err, errlen, "out of memory");
      goto fail;
    }
    for (size_t k = 0; k < rl.n; k++) {
      if (rv[k].batch == last) r->latest[r->nlatest++] = rv[k];
      if (same_scope(rv[k].scope, scope)) r->history[r->nhistory++] = rv[k];
    }
  }
  free(rl.items);
  array tl = {.size = sizeof(tuning_row)};
  if (tuning_store_foreach(db, run_id, load_tuning, &tl, err, errlen) || tl.failed) {
    if (tl.failed) error_set(err, errlen, "out of memory");
    free(tl.items);
    goto fail;
  }
  r->tuning = tl.items;
  r->ntuning = (int)tl.n;
  if (apply_scale(db, r, opt, err, errlen)) goto fail;
  choose_elo(db, r);
  *out = r;
  return 0;
fail:
  plot_run_free(r);
  return -1;
}

void plot_run_free(plot_run *r) {
  if (!r) return;
  free(r->pair);
  free(r->length);
  free(r->length_variant);
  free(r->length_pair);
  free(r->latest);
  free(r->history);
  free(r->tuning);
  store_run_free(&r->run);
  free(r);
}

/* ---- Running gnuplot ---- */

/* Finds prog (a name looked up in PATH, or a path) as execvp would; 0 with
 * the full path in buf, -1 when it is not there. */
static int find_program(const char *prog, char *buf, size_t len) {
  if (strchr(prog, '/')) {
    snprintf(buf, len, "%s", prog);
    return access(buf, X_OK) ? -1 : 0;
  }
  const char *path = getenv("PATH");
  if (!path) path = "/usr/local/bin:/usr/bin:/bin";
  while (1) {
    size_t n = strcspn(path, ":");
    if (n == 0) snprintf(buf, len, "./%s", prog);
    else snprintf(buf, len, "%.*s/%s", (int)n, path, prog);
    struct stat st;
    if (!stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK)) return 0;
    if (!path[n]) return -1;
    path += n + 1;
  }
}

static const char *gnuplot_program(const plot_options *opt) {
  return opt && opt->gnuplot ? opt->gnuplot : "gnuplot";
}

static int scripts_dir(const plot_options *opt, char *buf, size_t len) {
  const char *env = getenv("OWARE_SCRIPTS");
  if (opt && opt->scripts_dir) {
    snprintf(buf, len, "%s", opt->scripts_dir);
  } else if (env && *env) {
    snprintf(buf, len, "%s", env);
  } else {
    /* The scripts/ folder next to the report/ folder of this source file. */
    const char *file = __FILE__, *slash = strrchr(file, '/');
    size_t n = slash ? (size_t)(slash - file) : 0;
    while (n && file[n - 1] != '/') n--; /* strip "report" */
    snprintf(buf, len, "%.*sscripts", (int)n, file);
  }
  return 0;
}

/* Appends a gnuplot single-quoted string (a quote doubled; control
 * characters become spaces) to buf. */
static void gp_quote(char *buf, size_t len, const char *s) {
  size_t n = strlen(buf);
  if (n + 1 < len) buf[n++] = '\'';
  for (; *s && n + 3 < len; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '\'') buf[n++] = '\'';
    buf[n++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
  }
  if (n + 1 < len) buf[n++] = '\'';
  buf[n] = 0;
}

static void gp_var(char *buf, size_t len, const char *name, const char *value) {
  size_t n = strlen(buf);
  snprintf(buf + n, len - n, "%s=", name);
  gp_quote(buf, len, value);
  n = strlen(buf);
  snprintf(buf + n, len - n, "; ");
}

/* Runs `prog -e vars script`, stdin and stdout on /dev/null; 0 when it
 * exits 0, else -1 with its status and stderr in err. */
static int run_gnuplot(const char *prog, const char *vars, const char *script, char *err,
                       size_t errlen) {
  int fds[2];
  if (pipe(fds)) {
    error_set(err, errlen, "cannot run gnuplot: pipe: %s", strerror(errno));
    return -1;
  }
  pid_t pid = fork();
  if (pid < 0) {
    error_set(err, errlen, "cannot run gnuplot: fork: %s", strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    int dn = open("/dev/null", O_RDWR);
    if (dn >= 0) {
      dup2(dn, 0);
      dup2(dn, 1);
    }
    dup2(fds[1], 2);
    close(fds[0]);
    close(fds[1]);
    char *argv[] = {(char *)prog, (char *)"-e", (char *)vars, (char *)script, NULL};
    execv(prog, argv);
    static const char msg[] = "exec failed\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    _exit(127);
  }
  close(fds[1]);
  char out[2048];
  size_t n = 0;
  while (1) {
    char chunk[512];
    ssize_t k = read(fds[0], chunk, sizeof chunk);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    size_t take = (size_t)k < sizeof out - 1 - n ? (size_t)k : sizeof out - 1 - n;
    memcpy(out + n, chunk, take);
    n += take;
  }
  out[n] = 0;
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      error_set(err, errlen, "cannot run gnuplot: waitpid: %s", strerror(errno));
      return -1;
    }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
  while (n && (out[n - 1] == '\n' || out[n - 1] == ' ')) out[--n] = 0;
  for (char *p = out; *p; p++)
    if (*p == '\n') *p = ' ';
  if (WIFEXITED(status))
    error_set(err, errlen, "gnuplot exited with status %d: %s", WEXITSTATUS(status), n ? out : "(no message)");
  else
    error_set(err, errlen, "gnuplot was killed by signal %d: %s", WIFSIGNALED(status) ? WTERMSIG(status) : 0,
        n ? out : "(no message)");
  return -1;
}

static int file_nonempty(const char *path) {
  struct stat st;
  return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
}

/* Renders one kind with extra gnuplot assignments (may be ""). */
int plot_script(const char *name, const char *datafile, const char *outstem, const char *title,
                const char *extra, const plot_options *opt, char *err, size_t errlen) {
  char prog[4096], dir[4096], script[4200];
  if (find_program(gnuplot_program(opt), prog, sizeof prog)) {
    error_set(err, errlen, "gnuplot is not installed (no '%s' in PATH)", gnuplot_program(opt));
    return 1;
  }
  scripts_dir(opt, dir, sizeof dir);
  snprintf(script, sizeof script, "%s/%s.gp", dir, name);
  if (access(script, R_OK)) {
    error_set(err, errlen, "cannot read the gnuplot script '%s' (%s); set OWARE_SCRIPTS to the scripts folder",
        script, strerror(errno));
    return -1;
  }
  int w = opt && opt->width > 0 ? opt->width : 800, h = opt && opt->height > 0 ? opt->height : 500;
  static const char *const ext[2] = {"png", "svg"};
  for (int e = 0; e < 2; e++) {
    /* gnuplot draws into a temporary file of the same extension (the
     * scripts choose the terminal by it), renamed when complete: an image
     * is never seen half written. */
    char image[4200], tmp[4300], vars[12288] = "";
    snprintf(image, sizeof image, "%s.%s", outstem, ext[e]);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld.%s", outstem, (long)getpid(), ext[e]);
    unlink(image); /* a stale image must not pass for a new one */
    gp_var(vars, sizeof vars, "datafile", datafile);
    gp_var(vars, sizeof vars, "outfile", tmp);
    gp_var(vars, sizeof vars, "title", title);
    size_t n = strlen(vars);
    snprintf(vars + n, sizeof vars - n, "width=%d; height=%d; %s", w, h, extra ? extra : "");
    if (run_gnuplot(prog, vars, script, err, errlen)) {
      unlink(tmp); /* gnuplot may leave an empty or partial file */
      return -1;
    }
    if (!file_nonempty(tmp)) {
      unlink(tmp);
      error_set(err, errlen, "gnuplot exited 0 but wrote no '%s'", image);
      return -1;
    }
    if (rename(tmp, image)) {
      error_set(err, errlen, "cannot rename '%s' to '%s': %s", tmp, image, strerror(errno));
      unlink(tmp);
      return -1;
    }
  }
  return 0;
}

static int render(unsigned kind, const char *datafile, const char *outstem, const char *title,
                  const char *extra, const plot_options *opt, char *err, size_t errlen) {
  int ki = kind_index(kind);
  if (ki < 0) {
    error_set(err, errlen, "unknown chart kind %u", kind);
    return -1;
  }
  return plot_script(kind_names[ki], datafile, outstem, title, extra, opt, err, errlen);
}

int plot_render(unsigned kind, const char *datafile, const char *outstem, const char *title,
                const plot_options *opt, char *err, size_t errlen) {
  return render(kind, datafile, outstem, title, "", opt, err, errlen);
}

/* ---- Data files ---- */

/* Writes s as a gnuplot double-quoted data string: '"' becomes '\'', control
 * characters spaces. */
static void put_name(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    fputc(c == '"' ? '\'' : c < 0x20 || c == 0x7f ? ' ' : (int)c, f);
  }
  fputc('"', f);
}

static void put_pair_name(FILE *f, const plot_run *r, const plot_pair *p) {
  char buf[300];
  snprintf(buf, sizeof buf, "%s vs %s", r->run.player_name[p->a], r->run.player_name[p->b]);
  put_name(f, buf);
}

static double pct(long long k, long long n) { return n ? 100.0 * (double)k / (double)n : 0.0; }

/* x, with a value that prints as -0.00 made 0. */
static double nozero(double x) { return fabs(x) < 0.005 ? 0.0 : x; }

static int write_elo(const plot_run *r, FILE *f) {
  int n = r->nplayers, idx[STORE_MAX_PLAYERS];
  double key[STORE_MAX_PLAYERS];
  int m = 0; /* the players shown: with an Elo (or, without Elo, with games) */
  for (int i = 0; i < n; i++) {
    if (r->has_elo ? !r->player[i].has_elo : !r->player[i].games) continue;
    idx[m++] = i;
    key[i] = r->has_elo ? r->player[i].elo
                        : pct((long long)(2 * r->player[i].points), 2 * r->player[i].games);
  }
  n = m;
  for (int i = 1; i < n; i++) /* weakest first: the strongest is drawn at the top */
    for (int j = i; j > 0 && key[idx[j - 1]] > key[idx[j]]; j--) {
      int t = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = t;
    }
  fprintf(f, "# oware chart data: ladder of run %lld (%s)\n", (long long)r->run.id,
          r->has_elo ? "Elo, 95% interval" : "score %, 95% Wilson interval");
  fprintf(f, "# %s\n", r->elo_source);
  if (r->has_elo) fprintf(f, "# Elo relative to %s\n", r->scale_text);
  fprintf(f, "# rank player value low high games bound\n");
  for (int k = 0; k < n; k++) {
    const plot_player *p = &r->player[idx[k]];
    fprintf(f, "%d ", n - k);
    put_name(f, r->run.player_name[idx[k]]);
    if (r->has_elo)
      fprintf(f, " %.2f %.2f %.2f %lld %d\n", nozero(p->elo), nozero(p->lo), nozero(p->hi),
              p->games, p->bound);
    else
      fprintf(f, " %.3f %.3f %.3f %lld 0\n", key[idx[k]], p->wilson_lo, p->wilson_hi, p->games);
  }
  return 0;
}

static int write_ratings(const plot_run *r, FILE *f) {
  fprintf(f, "# oware chart data: stored ratings of run %lld, scope \"%s\", by games played\n",
          (long long)r->run.id, r->latest[0].scope);
  fprintf(f, "# Elo relative to %s at every fit (%d fitted again on it)\n", r->scale_text,
          r->refitted);
  fprintf(f, "# one block per player: games_total elo low high\n");
  int blocks = 0;
  for (int i = 0; i < r->nplayers; i++) {
    const char *name = r->run.player_name[r->order[i]];
    int lines = 0;
    for (int k = 0; k < r->nhistory; k++) {
      const store_rating *s = &r->history[k];
      if (strcmp(s->player, name)) continue;
      if (!lines) {
        if (blocks++) fputs("\n\n", f);
        fputs("\"games\" ", f);
        put_name(f, name);
        fputs(" \"low\" \"high\"\n", f);
      }
      fprintf(f, "%lld %.2f %.2f %.2f\n", s->games_total, s->elo, s->lo, s->hi);
      lines++;
    }
  }
  return 0;
}

static int write_matrix(const plot_run *r, FILE *f) {
  int n = r->nplayers;
  fprintf(f, "# oware chart data: score %% of the row player against the column player, run %lld\n",
          (long long)r->run.id);
  fputs("\"\"", f);
  for (int c = 0; c < n; c++) {
    fputc(' ', f);
    put_name(f, r->run.player_name[r->order[c]]);
  }
  fputc('\n', f);
  for (int k = 0; k < n; k++) {
    int i = r->order[k];
    put_name(f, r->run.player_name[i]);
    for (int c = 0; c < n; c++) {
      int j = r->order[c];
      const plot_pair *p = i == j ? NULL : &r->pair[plot_pair_index(r, i, j)];
      if (!p || !p->games) {
        fputs(" NaN", f);
        continue;
      }
      long long w = p->a == i ? p->wins_a : p->wins_b;
      fprintf(f, " %.2f", 100.0 * ((double)w + 0.5 * (double)p->draws) / (double)p->games);
    }
    fputc('\n', f);
  }
  return 0;
}

/* Groups for the length and end charts: the variants that have games when
 * there are several, else the pairings that have games (at most max_pairs
 * of them), else all games. */
enum { GROUP_ALL, GROUP_VARIANT, GROUP_PAIR };
typedef struct groups {
  int by, n;
  int *member; /* group -> variant or pair index */
  int *of;     /* variant or pair index -> group, -1 for none */
} groups;

static int groups_make(const plot_run *r, int max_pairs, groups *g) {
  int cap = r->npairs > r->run.nvariants ? r->npairs : r->run.nvariants;
  if (cap < 1) cap = 1;
  g->member = malloc((size_t)cap * sizeof *g->member);
  g->of = malloc((size_t)cap * sizeof *g->of);
  if (!g->member || !g->of) {
    free(g->member);
    free(g->of);
    return -1;
  }
  for (int k = 0; k < cap; k++) g->of[k] = -1;
  int nv = 0, np = 0;
  for (int v = 0; v < r->run.nvariants; v++) nv += r->variant_games[v] > 0;
  for (int k = 0; k < r->npairs; k++) np += r->pair[k].games > 0;
  g->n = 0;
  if (nv > 1) {
    g->by = GROUP_VARIANT;
    for (int v = 0; v < r->run.nvariants; v++)
      if (r->variant_games[v]) g->of[v] = g->n, g->member[g->n++] = v;
  } else if (np > 1 && np <= max_pairs) {
    g->by = GROUP_PAIR;
    for (int k = 0; k < r->npairs; k++)
      if (r->pair[k].games) g->of[k] = g->n, g->member[g->n++] = k;
  } else {
    g->by = GROUP_ALL;
    g->n = 1;
    g->member[0] = 0;
  }
  return 0;
}

static void groups_free(groups *g) {
  free(g->member);
  free(g->of);
}

static void put_group_name(FILE *f, const plot_run *r, const groups *g, int gi) {
  if (g->by == GROUP_VARIANT) put_name(f, r->run.variant[g->member[gi]]);
  else if (g->by == GROUP_PAIR) put_pair_name(f, r, &r->pair[g->member[gi]]);
  else put_name(f, "all games");
}

static int write_length(const plot_run *r, FILE *f) {
  groups gr;
  if (groups_make(r, 6, &gr)) return -1;
  int ngroups = gr.n;
  static const int steps[] = {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000};
  int width = steps[sizeof steps / sizeof *steps - 1];
  for (size_t k = 0; k < sizeof steps / sizeof *steps; k++)
    if (r->max_plies / steps[k] + 1 <= 25) {
      width = steps[k];
      break;
    }
  int nbins = r->max_plies / width + 1;
  long long *count = calloc((size_t)nbins * (size_t)ngroups, sizeof *count);
  long long *total = calloc((size_t)ngroups, sizeof *total);
  if (!count || !total) {
    free(count);
    free(total);
    groups_free(&gr);
    return -1;
  }
  for (long long g = 0; g < r->nlengths; g++) {
    int grp = gr.by == GROUP_VARIANT ? gr.of[r->length_variant[g]]
              : gr.by == GROUP_PAIR  ? gr.of[r->length_pair[g]]
                                     : 0;
    if (grp < 0) continue;
    count[(size_t)(r->length[g] / width) * (size_t)ngroups + (size_t)grp]++;
    total[grp]++;
  }
  fprintf(f, "# oware chart data: game lengths of run %lld, %% of each group's games per bin\n",
          (long long)r->run.id);
  fputs("\"plies\" \"bin width\"", f);
  for (int gi = 0; gi < ngroups; gi++) {
    fputc(' ', f);
    put_group_name(f, r, &gr, gi);
  }
  fputc('\n', f);
  for (int b = 0; b < nbins; b++) {
    fprintf(f, "%g %d", b * width + (width - 1) / 2.0, width);
    for (int gi = 0; gi < ngroups; gi++)
      fprintf(f, " %.3f", pct(count[(size_t)b * (size_t)ngroups + (size_t)gi], total[gi]));
    fputc('\n', f);
  }
  free(count);
  free(total);
  groups_free(&gr);
  return 0;
}

/* The time chart's data: the move number, then each player's mean ms at
 * it ("?" where the player has no move of that number). */
static int write_time(const plot_run *r, FILE *f) {
  fprintf(f, "# oware chart data: mean time per move (ms) of run %lld, by the player's move "
             "number in the game; ? where none\n\"move\"",
          (long long)r->run.id);
  for (int p = 0; p < r->nplayers; p++) {
    fputc(' ', f);
    put_name(f, r->run.player_name[p]);
  }
  fputc('\n', f);
  for (int k = 0; k < PLOT_TIME_MOVES; k++) {
    int any = 0;
    for (int p = 0; p < r->nplayers; p++) any |= r->time_n[p][k] > 0;
    if (!any) continue;
    fprintf(f, "%d", k + 1);
    for (int p = 0; p < r->nplayers; p++)
      if (r->time_n[p][k]) fprintf(f, " %.3f", r->time_ms[p][k] / (double)r->time_n[p][k]);
      else fputs(" ?", f);
    fputc('\n', f);
  }
  return 0;
}

static int write_ends(const plot_run *r, FILE *f) {
  groups gr;
  if (groups_make(r, 15, &gr)) return -1;
  long long all[PLOT_NENDS] = {0};
  for (int v = 0; v < r->run.nvariants; v++)
    for (int e = 0; e < PLOT_NENDS; e++) all[e] += r->variant_ends[v][e];
  int cols[PLOT_NENDS], ncols = 0;
  for (int e = 0; e < PLOT_NENDS; e++)
    if (e == PLOT_END_OTHER ? all[e] > 0 : plot_end_shown(r, e)) cols[ncols++] = e;
  fprintf(f, "# oware chart data: how the games of run %lld end, %% of each group's games\n",
          (long long)r->run.id);
  fputs("\"group\" \"games\"", f);
  for (int c = 0; c < ncols; c++) fprintf(f, " \"%s\"", plot_end_name(cols[c]));
  fputc('\n', f);
  for (int gi = 0; gi < gr.n; gi++) {
    const long long *ends = all;
    long long games = r->games;
    int m = gr.member[gi];
    if (gr.by == GROUP_VARIANT) ends = r->variant_ends[m], games = r->variant_games[m];
    else if (gr.by == GROUP_PAIR) ends = r->pair[m].ends, games = r->pair[m].games;
    put_group_name(f, r, &gr, gi);
    fprintf(f, " %lld", games);
    for (int c = 0; c < ncols; c++) fprintf(f, " %.3f", pct(ends[cols[c]], games));
    fputc('\n', f);
  }
  groups_free(&gr);
  return 0;
}

int plot_tuning_write(const char *path, int64_t run_id, const char *const *names, int nweights,
                      const plot_tuning_iter *it, int n, char *err, size_t errlen) {
  outfile of; /* written whole or not at all */
  if (outfile_open(&of, path, err, errlen)) return -1;
  FILE *f = of.f;
  fprintf(f, "# oware chart data: tuning of run %lld, weights after each iteration, Elo of the "
             "validation checkpoints (NaN: none)\n",
          (long long)run_id);
  fputs("\"iteration\" \"elo\" \"elo_lo\" \"elo_hi\"", f);
  for (int k = 0; k < nweights; k++) {
    fputc(' ', f);
    put_name(f, names[k]);
  }
  fputc('\n', f);
  for (int i = 0; i < n; i++) {
    fprintf(f, "%d", it[i].iteration);
    double e[3] = {it[i].elo, it[i].elo_lo, it[i].elo_hi};
    for (int k = 0; k < 3; k++)
      if (isfinite(e[k])) fprintf(f, " %.3f", e[k]);
      else fputs(" NaN", f);
    for (int k = 0; k < nweights; k++) fprintf(f, " %.6g", it[i].weights[k]);
    fputc('\n', f);
  }
  return outfile_commit(&of, err, errlen);
}

/* Splits "name value name value …" into up to max pairs. */
static int parse_weights(const char *text, char names[][64], double *values, int max) {
  int n = 0;
  const char *p = text;
  while (n < max) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    size_t l = strcspn(p, " \t");
    snprintf(names[n], 64, "%.*s", (int)(l < 63 ? l : 63), p);
    p += l;
    char *end;
    values[n] = strtod(p, &end);
    if (end == p) break;
    p = end;
    n++;
  }
  return n;
}

#define TUNING_MAX_WEIGHTS 64

/* tuning.dat from the stored iterations; 1 when there is nothing to draw. */
static int write_tuning(const plot_run *r, const char *path, char *err, size_t errlen) {
  int n = 0;
  for (int k = 0; k < r->ntuning; k++) n += strcmp(r->tuning[k].kind, "validation") != 0;
  if (!n) return 1;
  char(*names)[64] = calloc(TUNING_MAX_WEIGHTS, 64);
  double *w = calloc((size_t)n * TUNING_MAX_WEIGHTS, sizeof *w);
  plot_tuning_iter *it = calloc((size_t)n, sizeof *it);
  const char **np = calloc(TUNING_MAX_WEIGHTS, sizeof *np);
  char(*tmp)[64] = calloc(TUNING_MAX_WEIGHTS, 64);
  int rc = -1, nw = 0, m = 0;
  if (!names || !w || !it || !np || !tmp) {
    error_set(err, errlen, "out of memory");
    goto done;
  }
  for (int k = 0; k < r->ntuning; k++) {
    const tuning_row *t = &r->tuning[k];
    if (!strcmp(t->kind, "validation")) {
      if (m) { /* the checkpoint after the last iteration so far */
        it[m - 1].elo = t->value, it[m - 1].elo_lo = t->lo, it[m - 1].elo_hi = t->hi;
      }
      continue;
    }
    double vals[TUNING_MAX_WEIGHTS];
    int got = parse_weights(t->weights, tmp, vals, TUNING_MAX_WEIGHTS);
    if (!m) {
      nw = got;
      memcpy(names, tmp, sizeof(char[64]) * (size_t)got);
    }
    it[m].iteration = t->iteration;
    it[m].elo = it[m].elo_lo = it[m].elo_hi = NAN;
    it[m].weights = w + (size_t)m * TUNING_MAX_WEIGHTS;
    for (int a = 0; a < nw; a++) { /* by name, NaN when missing */
      w[(size_t)m * TUNING_MAX_WEIGHTS + (size_t)a] = NAN;
      for (int b = 0; b < got; b++)
        if (!strcmp(tmp[b], names[a])) w[(size_t)m * TUNING_MAX_WEIGHTS + (size_t)a] = vals[b];
    }
    m++;
  }
  for (int a = 0; a < nw; a++) np[a] = names[a];
  rc = nw ? plot_tuning_write(path, r->run.id, np, nw, it, m, err, errlen) : 1;
done:
  free(names);
  free(w);
  free(it);
  free(np);
  free(tmp);
  return rc;
}

/* ---- The charts of a run ---- */

/* Why run r has nothing to draw in chart `kind` (the reason written into
 * why), or NULL when it has something. */
static const char *nothing_to_draw(const plot_run *r, unsigned kind, char *why, size_t len) {
  long long rid = (long long)r->run.id;
  if (kind == PLOT_TUNING)
    return r->ntuning ? NULL : (snprintf(why, len, "run %lld has no tuning iterations", rid), why);
  if (!r->games) return snprintf(why, len, "run %lld has no games yet", rid), why;
  if (kind == PLOT_RATINGS && !r->nhistory)
    return snprintf(why, len, "run %lld has no stored ratings ('oware rate --run %lld' stores them)",
                    rid, rid),
           why;
  if (kind == PLOT_TIME && !r->time_games)
    return snprintf(why, len,
                    "run %lld has no move records (games stored before schema 8, or imported)", rid),
           why;
  if (kind == PLOT_MATRIX && r->nplayers < 2)
    return snprintf(why, len, "run %lld has fewer than two players", rid), why;
  return NULL;
}

int plot_charts_run(const plot_run *r, unsigned kinds, const char *outdir,
                    const plot_options *opt, plot_result *res, FILE *log, char *err,
                    size_t errlen) {
  memset(res, 0, sizeof *res);
  if (path_mkdirs(outdir, err, errlen)) return -1;
  char prog[4096];
  res->gnuplot_missing = find_program(gnuplot_program(opt), prog, sizeof prog) != 0;
  if (res->gnuplot_missing && log)
    fprintf(log, "charts skipped: gnuplot is not installed (no '%s' in PATH; Debian package "
                 "gnuplot-nox); data files are written to %s\n",
            gnuplot_program(opt), outdir);
  long long rid = (long long)r->run.id;
  int ret = 0;
  for (int ki = 0; ki < PLOT_NKINDS; ki++) {
    unsigned kind = 1u << ki;
    if (!(kinds & kind)) continue;
    plot_chart *c = &res->chart[res->n++];
    c->kind = kind;
    c->status = PLOT_MADE;
    snprintf(c->title, sizeof c->title, "%s", kind_titles[ki]);
    char data[4096], stem[4096], title[512], extra[512] = "";
    snprintf(data, sizeof data, "%s/%s.dat", outdir, kind_names[ki]);
    snprintf(stem, sizeof stem, "%s/%s", outdir, kind_names[ki]);
    /* What there is to draw. */
    char why[512];
    const char *nodata = nothing_to_draw(r, kind, why, sizeof why);
    if (!nodata) {
      int wrc = 0;
      if (kind == PLOT_TUNING) {
        wrc = write_tuning(r, data, err, errlen);
        if (wrc < 0) return -1;
        if (wrc == 1) {
          snprintf(why, sizeof why, "run %lld has no tuning iterations with weights", rid);
          nodata = why;
        }
      } else {
        outfile of; /* written whole or not at all */
        if (outfile_open(&of, data, err, errlen)) return -1;
        FILE *f = of.f;
        switch (kind) {
        case PLOT_ELO: wrc = write_elo(r, f); break;
        case PLOT_RATINGS: wrc = write_ratings(r, f); break;
        case PLOT_MATRIX: wrc = write_matrix(r, f); break;
        case PLOT_LENGTH: wrc = write_length(r, f); break;
        case PLOT_TIME: wrc = write_time(r, f); break;
        default: wrc = write_ends(r, f); break;
        }
        if (wrc) {
          outfile_abort(&of);
          error_set(err, errlen, "cannot write '%s': out of memory", data);
          return -1;
        }
        if (outfile_commit(&of, err, errlen)) return -1;
      }
    }
    if (nodata) {
      c->status = PLOT_NO_DATA;
      snprintf(c->note, sizeof c->note, "%s", nodata);
      /* without gnuplot, the one message above says it all */
      if (log && !res->gnuplot_missing)
        fprintf(log, "chart %s: nothing to draw: %s\n", kind_names[ki], nodata);
      continue;
    }
    if (kind == PLOT_ELO) {
      snprintf(extra, sizeof extra, "metric='%s'; ", r->has_elo ? "elo" : "score");
      gp_var(extra, sizeof extra, "scale", r->scale_text);
      if (r->has_elo)
        snprintf(c->note, sizeof c->note, "Elo relative to %s; %s", r->scale_text, r->elo_source);
      else
        snprintf(c->note, sizeof c->note, "%s", r->elo_source);
      if (!r->has_elo) snprintf(c->title, sizeof c->title, "Score ladder (no Elo)");
    } else if (kind == PLOT_TUNING && r->run.kind == STORE_NET &&
               !strcmp(r->tuning[0].kind, "generation")) {
      snprintf(extra, sizeof extra, "mode='value'; what='Elo'; ");
      snprintf(c->note, sizeof c->note,
               "the loop of generations: each candidate's Elo against the best of its "
               "generation (candidate, from its SPRT's game pairs) and the best's, the kept "
               "candidates' Elo summed (best), against the generation − 1");
    } else if (kind == PLOT_TUNING && r->run.kind == STORE_NET) {
      snprintf(extra, sizeof extra, "mode='value'; what='loss'; ");
      snprintf(c->note, sizeof c->note,
               "the network's loss (mean squared error of the win probability) after each "
               "epoch, on the training and the validation positions");
    } else if (kind == PLOT_TUNING) {
      snprintf(c->note, sizeof c->note,
               "each weight as its change since the first iteration (mode='value' in "
               "scripts/tuning.gp draws the values); below, the Elo gain of the validation");
    } else if (kind == PLOT_RATINGS) {
      int fits = 0;
      for (int k = 0; k < r->nhistory; k++)
        fits += !k || r->history[k].batch != r->history[k - 1].batch;
      gp_var(extra, sizeof extra, "scale", r->scale_text);
      snprintf(c->note, sizeof c->note, "%d stored fit%s of scope \"%s\", Elo relative to %s%s",
               fits, fits == 1 ? "" : "s", r->latest[0].scope, r->scale_text,
               r->refitted ? " (the fits stored on another scale fitted again on it)" : "");
    }
    snprintf(title, sizeof title, "Run %lld (%s): %s", rid, r->run.name, c->title);
    if (res->gnuplot_missing) {
      c->status = PLOT_NO_GNUPLOT;
      snprintf(c->note, sizeof c->note, "gnuplot is not installed: data in %s.dat only",
               kind_names[ki]);
      ret = 1;
      continue;
    }
    char rerr[sizeof c->note];
    int rr = render(kind, data, stem, title, extra, opt, rerr, sizeof rerr);
    if (rr) {
      c->status = rr > 0 ? PLOT_NO_GNUPLOT : PLOT_FAILED;
      snprintf(c->note, sizeof c->note, "%s", rerr);
      if (log) fprintf(log, "chart %s failed: %s\n", kind_names[ki], rerr);
      ret = 1;
      continue;
    }
    res->made++;
    if (log) fprintf(log, "chart %s: %s.png, %s.svg\n", kind_names[ki], stem, stem);
  }
  return ret;
}

int plot_charts(store *db, int64_t run_id, unsigned kinds, const char *outdir,
                const plot_options *opt, plot_result *res, FILE *log, char *err, size_t errlen) {
  plot_run *r;
  memset(res, 0, sizeof *res);
  if (plot_run_load_opt(db, run_id, opt, &r, err, errlen)) return -1;
  int rc = plot_charts_run(r, kinds, outdir, opt, res, log, err, errlen);
  plot_run_free(r);
  return rc;
}
