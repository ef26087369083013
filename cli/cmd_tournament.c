/* cmd_tournament.c: `oware tournament`, `oware runs` and `oware export`. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena/pgn.h"
#include "arena/report.h"
#include "arena/series.h"
#include "arena/store.h"
#include "arena/tournament.h"
#include "cli/cli.h"
#include "core/notation.h"
#include "players/player.h"

#define DEFAULT_DB CLI_DEFAULT_DB

static atomic_int stop_flag;


static const char tournament_help[] =
    "usage: oware tournament --players 'SPEC;SPEC;...' | --players-file FILE\n"
    "                        [--kind round-robin|gauntlet] [--format F] [--variant V[;V...]]\n"
    "                        [--openings O] [--rounds R] [--threads N] [--seed S]\n"
    "                        [--db PATH] [--name NAME] [--sprt elo0=E0,elo1=E1[,...]]\n"
    "                        [--report] [--quiet]\n"
    "       oware tournament --resume RUN_ID [--db PATH] [--threads N] [--quiet]\n"
    "Plays every pairing (round-robin) or the first player against each other\n"
    "(gauntlet), under every variant named, R rounds (default 1), as series of the\n"
    "format F (default games:2): best-of:N, first-to:K[,lead:M][,cap:C],\n"
    "streak:K[,cap:C], games:N. Each opening is played twice, colours swapped;\n"
    "openings are random:PLIES (random legal moves from the seed, default\n"
    "random:2) or file:PATH (position strings, one a line). Every game is stored\n"
    "in the SQLite database (default " DEFAULT_DB ") as soon as it ends; a run\n"
    "cut short (Ctrl-C, or even kill -9) is continued with --resume, which plays\n"
    "exactly the games an uninterrupted run would have played. Game seeds come\n"
    "from --seed (default 1) and each game's place in the schedule, so the same\n"
    "command gives the same games with any number of --threads (default: cores).\n"
    "Player names are their specs unless the spec sets name=.\n"
    "--sprt elo0=0,elo1=5[,alpha=0.05,beta=0.05][,model=normalized|logistic]: two\n"
    "players play game pairs until fishtest's generalized SPRT (pentanomial)\n"
    "accepts H0 or H1, or the games:N cap (default games:20000) is reached.\n"
    "At the end: standings, cross table, Elo with 95% intervals (stored in the\n"
    "ratings table, and about ten times along the run for the charts).\n"
    "--report writes the run's report (index.html, report.md, charts, OGN) to\n"
    "results/run-N/ at the end and prints where it is.\n"
    "Exit codes: 0 finished, 1 failed, 2 bad input, 130 interrupted.\n";

/* The SPRT of a run being resumed, from its stored command line. */
static int resume_sprt(const char *cmd, const store_run *r, tournament *t) {
  char **av = NULL, err[256];
  int ac = cli_unquote_args(r->command, "oware tournament", &av), rc = 0;
  for (int i = 0; i < ac; i++) {
    const char *val = NULL;
    if (!strcmp(av[i], "--sprt") && i + 1 < ac) val = av[i + 1];
    else if (!strncmp(av[i], "--sprt=", 7)) val = av[i] + 7;
    if (!val) continue;
    if (rating_sprt_parse(val, &t->sprt, err, sizeof err)) {
      cli_error(cmd, "run %lld: its --sprt: %s", (long long)r->id, err);
      rc = -1;
    }
    t->sprt_on = !rc;
  }
  for (int i = 0; i < ac; i++) free(av[i]);
  free(av);
  return rc;
}

/* Splits "a;b;c" (or lines of a file) into the run's players. */
static int add_players(const char *cmd, char *list, int file, store_run *r) {
  char *save = NULL;
  for (char *tok = strtok_r(list, file ? "\n" : ";", &save); tok;
       tok = strtok_r(NULL, file ? "\n" : ";", &save)) {
    while (*tok == ' ' || *tok == '\t') tok++;
    size_t l = strlen(tok);
    while (l && (tok[l - 1] == ' ' || tok[l - 1] == '\r' || tok[l - 1] == '\t')) tok[--l] = 0;
    if (!l || tok[0] == '#') continue;
    if (r->nplayers == STORE_MAX_PLAYERS)
      return cli_error(cmd, "more than %d players", STORE_MAX_PLAYERS), -1;
    if (l >= sizeof r->player_spec[0]) return cli_error(cmd, "player spec too long: %.40s…", tok), -1;
    player_config cfg;
    char err[512];
    if (player_parse_spec(tok, &cfg, err, sizeof err))
      return cli_error(cmd, "player %d: %s", r->nplayers + 1, err), -1;
    snprintf(r->player_name[r->nplayers], sizeof r->player_name[0], "%s", cfg.name);
    player_config_free(&cfg);
    snprintf(r->player_spec[r->nplayers], sizeof r->player_spec[0], "%s", tok);
    for (int i = 0; i < r->nplayers; i++)
      if (!strcmp(r->player_name[i], r->player_name[r->nplayers]))
        return cli_error(cmd, "two players are named '%s': give one of them name=...",
                         r->player_name[i]),
               -1;
    r->nplayers++;
  }
  return 0;
}

static int add_variants(const char *cmd, const char *text, store_run *r) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", text);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
    variant v;
    if (cli_variant(cmd, tok, &v)) return -1;
    if (r->nvariants == STORE_MAX_VARIANTS)
      return cli_error(cmd, "more than %d variants", STORE_MAX_VARIANTS), -1;
    variant_format(&v, r->variant[r->nvariants], sizeof r->variant[0]);
    for (int i = 0; i < r->nvariants; i++)
      if (!strcmp(r->variant[i], r->variant[r->nvariants]))
        return cli_error(cmd, "variant '%s' is named twice", r->variant[i]), -1;
    r->nvariants++;
  }
  if (!r->nvariants) return cli_error(cmd, "--variant names no variant"), -1;
  return 0;
}


/* The progress line (on a terminal) and the SPRT's course, on stderr. */
static void show_progress(void *ctx, const tournament_progress *p) {
  (void)ctx;
  if (!isatty(STDERR_FILENO)) return;
  double rate = p->seconds > 0 ? (double)p->fresh / p->seconds : 0;
  double left = rate > 0 ? (double)(p->total - p->stored) / rate : 0;
  fprintf(stderr, "\r%lld/%lld games, %.1f games/s, %s %.0f s   ", p->stored, p->total, rate,
          p->final ? "took" : "about", p->final ? p->seconds : left);
  if (p->final) fputc('\n', stderr);
}

/* On a terminal the line is rewritten after every pair; elsewhere it is
 * written every 100 pairs and at the decision. */
static void show_sprt(void *ctx, const rating_sprt_result *r, long long pairs) {
  (void)ctx;
  if (!isatty(STDERR_FILENO) && !r->decision && pairs % 100) return;
  fprintf(stderr, "%sSPRT: LLR %.3f (%.3f, %.3f), %lld pairs%s\n", isatty(STDERR_FILENO) ? "\r" : "",
          r->llr, r->lower, r->upper, pairs, r->decision ? ": decided" : "");
}

void cli_watch_tournament(tournament *t) {
  t->observer = (tournament_observer){NULL, show_progress, show_sprt};
}

int cli_tournament(int argc, char **argv) {
  const char *cmd = "tournament", *val;
  const char *players = NULL, *players_file = NULL, *kind = "round-robin", *format = "games:2";
  const char *variants = "abapa", *openings = "random:2", *db_path = DEFAULT_DB, *name = NULL;
  const char *sprt = NULL;
  long long rounds = 1, threads = sysconf(_SC_NPROCESSORS_ONLN), seed = 1, resume = -1;
  int quiet = 0, threads_set = 0, config_given = 0, report = 0;
  if (threads < 1) threads = 1;
  for (int i = 0; i < argc; i++) {
    int r;
#define OPT(name, var)                                                   \
  if ((r = cli_opt(argc, argv, &i, cmd, name, &val))) {                  \
    if (r < 0) return CLI_EXIT_USAGE;                                    \
    var = val;                                                           \
    config_given = 1;                                                    \
    continue;                                                            \
  }
    if (cli_is_help(argv[i])) {
      fputs(tournament_help, stdout);
      return CLI_EXIT_OK;
    }
    OPT("--players", players)
    OPT("--players-file", players_file)
    OPT("--kind", kind)
    OPT("--format", format)
    OPT("--variant", variants)
    OPT("--openings", openings)
    OPT("--name", name)
    OPT("--sprt", sprt)
#undef OPT
    if ((r = cli_opt(argc, argv, &i, cmd, "--db", &val))) {
      if (r < 0) return CLI_EXIT_USAGE;
      db_path = val;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--rounds", &val))) {
      if (r < 0 || cli_long(cmd, "--rounds", val, 1, 100000, &rounds)) return CLI_EXIT_USAGE;
      config_given = 1;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--threads", &val))) {
      if (r < 0 || cli_long(cmd, "--threads", val, 1, 256, &threads)) return CLI_EXIT_USAGE;
      threads_set = 1;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--seed", &val))) {
      if (r < 0 || cli_long(cmd, "--seed", val, 0, (long long)(~0ULL >> 1), &seed))
        return CLI_EXIT_USAGE;
      config_given = 1;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--resume", &val))) {
      if (r < 0 || cli_long(cmd, "--resume", val, 1, (long long)(~0ULL >> 1), &resume))
        return CLI_EXIT_USAGE;
    } else if (!strcmp(argv[i], "--quiet")) {
      quiet = 1;
    } else if (!strcmp(argv[i], "--report")) {
      report = 1;
    } else {
      return cli_error(cmd, "unexpected argument '%s' (see --help)", argv[i]);
    }
  }
  char err[1024];
  tournament *t = calloc(1, sizeof *t);
  if (!t) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  store *db = NULL;
  int rc = CLI_EXIT_USAGE;
  store_run *r = &t->run;
  if (!quiet) cli_watch_tournament(t);
  if (resume > 0) {
    if (config_given) {
      cli_error(cmd, "--resume takes the configuration of the run: only --db, --threads and "
                     "--quiet go with it");
      goto out;
    }
    if (store_open(db_path, 0, &db, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      goto out;
    }
    if (store_run_load(db, resume, r, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      goto out;
    }
    if (!strcmp(r->status, "finished")) {
      fprintf(stderr, "oware tournament: run %lld is already finished\n", resume);
      rc = tournament_print_standings(db, r->id, stdout, err, sizeof err) ? CLI_EXIT_FAIL : 0;
      goto out;
    }
    if (threads_set) r->threads = (int)threads;
    if (resume_sprt(cmd, r, t)) goto out;
    if (tournament_prepare(t, err, sizeof err)) {
      cli_error(cmd, "run %lld: %s", resume, err);
      goto out;
    }
    if (store_run_status(db, r->id, "running", err, sizeof err)) {
      cli_error(cmd, "%s", err);
      rc = CLI_EXIT_FAIL;
      goto out;
    }
  } else {
    /* Everything is checked before the database is touched. */
    if (!players == !players_file) {
      cli_error(cmd, "give the players with --players 'SPEC;SPEC;...' or --players-file FILE");
      goto out;
    }
    char *list = players ? strdup(players) : cli_read_file(cmd, players_file);
    if (!list) goto out;
    int bad = add_players(cmd, list, players_file != NULL, r);
    free(list);
    if (bad) goto out;
    if (add_variants(cmd, variants, r)) goto out;
    if (sprt) {
      if (rating_sprt_parse(sprt, &t->sprt, err, sizeof err)) {
        cli_error(cmd, "--sprt: %s", err);
        goto out;
      }
      t->sprt_on = 1;
      if (!strcmp(format, "games:2")) format = "games:20000";
    }
    series_format f;
    if (series_parse(format, &f, err, sizeof err)) {
      cli_error(cmd, "--format: %s", err);
      goto out;
    }
    series_format_string(&f, r->format, sizeof r->format);
    if (strcmp(kind, "round-robin") && strcmp(kind, "gauntlet")) {
      cli_error(cmd, "--kind is '%s'; expected round-robin or gauntlet", kind);
      goto out;
    }
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    if (strlen(openings) >= sizeof r->openings) {
      cli_error(cmd, "--openings is too long");
      goto out;
    }
    snprintf(r->openings, sizeof r->openings, "%s", openings);
    r->rounds = (int)rounds;
    r->threads = (int)threads;
    r->seed = (uint64_t)seed;
    snprintf(r->name, sizeof r->name, "%s", name ? name : sprt ? "sprt" : "tournament");
    /* The command line is the run's record; --resume reads the SPRT from it. */
    cli_quote_args("oware tournament", argc, argv, r->command, sizeof r->command);
    if (tournament_prepare(t, err, sizeof err)) {
      cli_error(cmd, "%s", err);
      goto out;
    }
    if ((rc = cli_store_new_run(cmd, db_path, r, &db))) goto out;
  }
  if (!quiet)
    fprintf(stderr, "run %lld: %d players, %d variant(s), %d series of %s, %d thread(s), seed %llu, db %s\n",
            (long long)r->id, r->nplayers, r->nvariants, t->nseries, r->format, r->threads,
            (unsigned long long)r->seed, db_path);
  cli_catch_stop(&stop_flag, "\noware: stopping after the games in progress (Ctrl-C again to quit at once)\n");
  int res = tournament_play(t, db, &stop_flag, err, sizeof err);
  cli_release_stop();
  if (res < 0) {
    fprintf(stderr, "oware tournament: run %lld failed: %s\n", (long long)r->id, err);
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  if (tournament_print_standings(db, r->id, stdout, err, sizeof err) ||
      tournament_print_ratings(db, r->id, t, stdout, err, sizeof err)) {
    cli_error(cmd, "%s", err);
    rc = CLI_EXIT_FAIL;
    goto out;
  }
  if (t->sprt_on)
    printf("\nSPRT %s: %s (LLR %.3f, bounds %.3f %.3f) after %lld game pairs, counted in "
           "schedule order; games after the deciding pair are not stored\n",
           t->sprt.model == RATING_MODEL_NORMALIZED ? "(normalized Elo)" : "(logistic Elo)",
           rating_decision_name(t->sprt_result.decision), t->sprt_result.llr,
           t->sprt_result.lower, t->sprt_result.upper,
           t->sprt_match.penta[0] + t->sprt_match.penta[1] + t->sprt_match.penta[2] +
               t->sprt_match.penta[3] + t->sprt_match.penta[4]);
  if (report) {
    char dir[256];
    snprintf(dir, sizeof dir, "results/run-%lld", (long long)r->id);
    if (report_write(db, r->id, dir, stderr, err, sizeof err)) {
      cli_error(cmd, "report: %s", err);
      rc = CLI_EXIT_FAIL;
      goto out;
    }
    printf("report: %s/index.html\n", dir);
  }
  if (res == 1) {
    fprintf(stderr, "oware tournament: run %lld interrupted; continue it with: oware tournament "
                    "--resume %lld --db %s\n",
            (long long)r->id, (long long)r->id, db_path);
    rc = 130;
  } else {
    rc = CLI_EXIT_OK;
  }
out:
  if (db) store_close(db);
  tournament_free(t);
  free(t);
  return rc;
}

/* ---- oware runs ---- */

static int print_run(void *ctx, const store_run *r) {
  store *db = ctx;
  printf("%5lld  %-11s %-20.20s %-11s %3d players %7lld games  %s\n", (long long)r->id, r->status,
         r->name, r->kind, r->nplayers, store_games_count(db, r->id), r->started);
  return 0;
}

int cli_runs(int argc, char **argv) {
  const char *cmd = "runs", *db_path = DEFAULT_DB, *val;
  for (int i = 0; i < argc; i++) {
    int r;
    if (cli_is_help(argv[i])) {
      printf("usage: oware runs [--db PATH]\nLists the runs stored in the database, newest first.\n");
      return CLI_EXIT_OK;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--db", &val))) {
      if (r < 0) return CLI_EXIT_USAGE;
      db_path = val;
    } else {
      return cli_error(cmd, "unexpected argument '%s' (see --help)", argv[i]);
    }
  }
  store *db;
  char err[512];
  if (store_open(db_path, 0, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
  int rc = store_runs_foreach(db, print_run, db, err, sizeof err);
  store_close(db);
  if (rc) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  return CLI_EXIT_OK;
}

/* ---- oware export ---- */

typedef struct exporter {
  FILE *out;
  const store_run *run;
  int csv, pgn;
  int failed;
  char err[512];
} exporter;

static void csv_field(FILE *f, const char *s, int last) {
  if (strpbrk(s, ",\"\n\r")) {
    fputc('"', f);
    for (; *s; s++) {
      if (*s == '"') fputc('"', f);
      fputc(*s, f);
    }
    fputc('"', f);
  } else {
    fputs(s, f);
  }
  fputc(last ? '\n' : ',', f);
}

static int export_game(void *ctx, const store_game *g) {
  exporter *e = ctx;
  const store_run *r = e->run;
  char s0[16], s1[16], result[40];
  notation_format_half(g->score2[0], s0, sizeof s0);
  notation_format_half(g->score2[1], s1, sizeof s1);
  snprintf(result, sizeof result, "%s-%s", s0, s1);
  if (e->csv) {
    /* Free text (variant, detail) last, so that simple tools can cut. */
    fprintf(e->out, "%d,%d,%d,", g->series_no, g->game_no, g->round);
    csv_field(e->out, r->player_name[g->south_idx], 0);
    csv_field(e->out, r->player_name[g->north_idx], 0);
    csv_field(e->out, g->opening, 0);
    csv_field(e->out, g->moves, 0);
    fprintf(e->out, "%s,%s,%s,%d,%s,%llu,%.3f,", s0, s1,
            g->winner < 0 ? "draw" : g->winner == 0 ? "south" : "north", g->plies, g->end,
            (unsigned long long)g->seed, g->seconds);
    csv_field(e->out, r->variant[g->variant_idx], 0);
    csv_field(e->out, g->detail, 1);
    return 0;
  }
  if (e->pgn) {
    e->failed = pgn_write_stored(e->out, r, g, e->err, sizeof e->err) != 0;
    return e->failed;
  }
  /* OGN: the game is replayed from its opening, which checks the moves. */
  variant v;
  board start;
  game gm;
  if (variant_parse(r->variant[g->variant_idx], &v, e->err, sizeof e->err) ||
      notation_parse_position(g->opening, &v, &start, e->err, sizeof e->err) ||
      game_init(&gm, &v, &start)) {
    e->failed = 1;
    return 1;
  }
  for (const char *m = g->moves; *m; m++)
    if (game_play(&gm, notation_move_index(&v, *m))) {
      snprintf(e->err, sizeof e->err, "series %d game %d: stored move %ld (%c) is not legal",
               g->series_no, g->game_no, (long)(m - g->moves) + 1, *m);
      e->failed = 1;
      game_free(&gm);
      return 1;
    }
  char round[48], date[16];
  snprintf(round, sizeof round, "%d.%d.%d", g->round + 1, g->series_no + 1, g->game_no + 1);
  snprintf(date, sizeof date, "%.4s.%.2s.%.2s", r->started, r->started + 5, r->started + 8);
  notation_meta meta = {r->name, "oware-harness", date, round, r->player_name[g->south_idx],
                        r->player_name[g->north_idx], result, g->end};
  if (notation_ogn_write(e->out, &gm, &meta)) {
    snprintf(e->err, sizeof e->err, "write error");
    e->failed = 1;
  }
  game_free(&gm);
  return e->failed;
}

int cli_export(int argc, char **argv) {
  const char *cmd = "export", *db_path = DEFAULT_DB, *format = NULL, *outp = NULL, *val;
  long long run = -1;
  for (int i = 0; i < argc; i++) {
    int r;
    if (cli_is_help(argv[i])) {
      printf("usage: oware export --run N [--db PATH] --format ogn|csv|pgn [--out FILE]\n"
             "Writes the games of run N as OGN (one record a game, readable by Aualé),\n"
             "CSV (a header line, then a game a line) or PGN (one record a game, White =\n"
             "South, Black = North, Result 1-0/0-1/1/2-1/2: what Ordo and BayesElo read;\n"
             "docs/PGN.md), to FILE or standard output.\n");
      return CLI_EXIT_OK;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--db", &val))) {
      if (r < 0) return CLI_EXIT_USAGE;
      db_path = val;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--format", &val))) {
      if (r < 0) return CLI_EXIT_USAGE;
      format = val;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--out", &val))) {
      if (r < 0) return CLI_EXIT_USAGE;
      outp = val;
    } else if ((r = cli_opt(argc, argv, &i, cmd, "--run", &val))) {
      if (r < 0 || cli_long(cmd, "--run", val, 1, (long long)(~0ULL >> 1), &run))
        return CLI_EXIT_USAGE;
    } else {
      return cli_error(cmd, "unexpected argument '%s' (see --help)", argv[i]);
    }
  }
  if (run < 0) return cli_error(cmd, "--run N is needed ('oware runs' lists them)");
  if (!format || (strcmp(format, "ogn") && strcmp(format, "csv") && strcmp(format, "pgn")))
    return cli_error(cmd, "--format must be ogn, csv or pgn");
  store *db;
  char err[512];
  if (store_open(db_path, 0, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
  store_run *r = malloc(sizeof *r);
  if (!r || store_run_load(db, run, r, err, sizeof err)) {
    store_close(db);
    free(r);
    return cli_error(cmd, "%s", r ? err : "out of memory");
  }
  FILE *out = outp ? fopen(outp, "w") : stdout;
  if (!out) {
    store_close(db);
    free(r);
    return cli_error(cmd, "cannot write '%s': %s", outp, strerror(errno));
  }
  exporter e = {out, r, !strcmp(format, "csv"), !strcmp(format, "pgn"), 0, ""};
  if (e.csv)
    fprintf(out, "series,game,round,south,north,opening,moves,score_south,score_north,winner,"
                 "plies,end,seed,seconds,variant,detail\n");
  int rc = store_games_foreach(db, run, export_game, &e, err, sizeof err);
  int bad = (outp && fclose(out)) || (!outp && fflush(out));
  store_close(db);
  free(r);
  if (e.failed) return cli_error(cmd, "%s", e.err), CLI_EXIT_FAIL;
  if (rc) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (bad) return cli_error(cmd, "cannot write '%s'", outp ? outp : "standard output"), CLI_EXIT_FAIL;
  return CLI_EXIT_OK;
}
