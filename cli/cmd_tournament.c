/* cmd_tournament.c: `oware tournament`, `oware runs` and `oware export`. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "report/pgn.h"
#include "report/plot.h"
#include "report/report.h"
#include "run/series.h"
#include "store/store.h"
#include "report/rating_print.h"
#include "run/tournament.h"
#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "core/clock.h"
#include "core/notation.h"
#include "players/player.h"
#include "store/replay.h"

#define DEFAULT_DB CLI_DEFAULT_DB

static atomic_int stop_flag;


static const char tournament_usage[] =
    "usage: oware tournament --players 'SPEC;SPEC;...' | --players-file FILE [options]\n"
    "       oware tournament --resume RUN_ID [--db PATH] [--threads N] [--quiet]\n"
    "Plays every pairing (round-robin) or the first player against each other\n"
    "(gauntlet), under every variant named, R rounds, as series of the format F:\n"
    "best-of:N, first-to:K[,lead:M][,cap:C], streak:K[,cap:C], games:N. Each\n"
    "opening is played twice, colours swapped; openings are random:PLIES (random\n"
    "legal moves from the seed), file:PATH (position strings, one a line, taken in\n"
    "turn and again from the first when the run is longer than the file) or\n"
    "file:PATH+random:PLIES (that many random moves from each, drawn anew for every\n"
    "pair: a long run of players that do not draw, depth= or nodes=, then never\n"
    "repeats its games).\n"
    "Every game is stored in the SQLite database as soon as it ends; a run cut\n"
    "short (Ctrl-C, or even kill -9) is continued with --resume, which plays\n"
    "exactly the games an uninterrupted run would have played. Game seeds come\n"
    "from --seed and each game's place in the schedule, so the same command gives\n"
    "the same games with any number of --threads (not so with a player whose own\n"
    "search is multi-threaded, minimax:threads=N > 1, or who plays on a game clock,\n"
    "tc=BASE+INC or --tc: a warning says so, and a --resume of such a run plays\n"
    "new games from where it stopped).\n"
    "--tc 10+0.1 or 40/60[+INC] (seconds) gives every player whose spec sets no\n"
    "tc= a game clock kept by the harness; a move that comes more than --tc-margin\n"
    "ms past its clock loses the game (forfeit-time).\n"
    "Player names are their specs unless the spec sets name=.\n"
    "--sprt elo0=0,elo1=5[,alpha=0.05,beta=0.05][,model=normalized|logistic]: two\n"
    "players play game pairs until fishtest's generalized SPRT (pentanomial)\n"
    "accepts H0 or H1, or the games:N cap (default games:20000) is reached.\n"
    "--adjudicate 'egdb;draw=PLIES,SCORE,MOVES;resign=SCORE,MOVES;maxplies=PLIES'\n"
    "(any of them) ends games early: egdb as soon as the tables decide the result (the\n"
    "default folder's tables, pinned with the run; egdb=DIR a folder), scored as\n"
    "the tables say; draw once PLIES plies are played and both players' scores\n"
    "stayed within +-SCORE centiseeds for MOVES moves each; resign when a\n"
    "player's score stayed at or below -SCORE for MOVES of its moves (players\n"
    "that report no score never trigger these); a draw once PLIES plies are\n"
    "played with maxplies (cutechess-cli's -maxmoves). Adjudicated games are rated like\n"
    "the others (docs/EGDB.md).\n"
    "At the end: standings, cross table, Elo with 95% intervals (stored in the\n"
    "ratings table, and about ten times along the run for the charts).\n"
    "--report writes the run's report (index.html, report.md, charts, OGN) to\n"
    "results/run-N/ at the end and prints where it is.\n";

typedef struct tournament_args {
  tournament_config c; /* the run's settings (run/tournament.c) */
  const char *db;
  long long threads, resume;
  int quiet, report, threads_set, config_given, json;
} tournament_args;

#define TOURNAMENT_MAX_OPTS 24

/* The options of `oware tournament`: the settings of a run (its table,
 * tournament_settings), then what is not stored. Returns like cli_parse. */
static int parse_args(int argc, char **argv, tournament_args *a, int *rc) {
  memset(a, 0, sizeof *a);
  a->threads = sysconf(_SC_NPROCESSORS_ONLN);
  if (a->threads < 1) a->threads = 1;
  a->resume = -1;
  int nargs;
  cli_option opts[TOURNAMENT_MAX_OPTS];
  int n = cli_settings_options(tournament_settings, &a->c, opts, TOURNAMENT_MAX_OPTS - 7);
  if (n < 0) return *rc = cli_error("tournament", "too many options"), 1;
  int nsettings = n;
  opts[n++] = (cli_option)CLI_O_INT("threads", &a->threads, 1, 256, "N", NULL,
                                    "games played at once, by default one per core");
  opts[n++] = (cli_option)CLI_O_TEXT("db", &a->db, "PATH", DEFAULT_DB, "the SQLite database");
  opts[n++] = (cli_option)CLI_O_INT("resume", &a->resume, 1, (long long)(~0ULL >> 1), "RUN_ID",
                                    NULL, "continue a run that was stopped");
  opts[n++] = (cli_option)CLI_O_FLAG("report", &a->report, "write the run's report at the end");
  opts[n++] = (cli_option)CLI_O_FLAG("quiet", &a->quiet, "no progress on stderr");
  opts[n++] = (cli_option)CLI_O_FLAG("json", &a->json,
                                     "at the end, the standings as JSON instead of the tables "
                                     "(docs/JSON.md)");
  opts[n] = (cli_option)CLI_END;
  cli_command_spec spec = {"tournament", tournament_usage,
                           "Exit codes: 0 finished, 1 failed, 2 bad input, 130 interrupted.\n",
                           opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, rc)) return 1;
  a->threads_set = cli_option_find(&spec, "threads")->given > 0;
  for (int i = 0; i < nsettings; i++) a->config_given |= opts[i].given > 0;
  return 0;
}

/* The progress line (cli/progress.h) and the SPRT's course, on stderr. */
static void show_progress(void *ctx, const tournament_progress *p) {
  cli_progress *line = ctx;
  /* The rate counts this call's games only (a resumed run's stored ones
   * took no time here). */
  if (!line->label[0])
    cli_progress_begin(line, "played", p->stored - p->fresh, clock_now() - p->seconds);
  if (p->final) cli_progress_clear(line);
  else cli_progress_update(line, "played", NULL, p->stored, p->total, "games");
}

/* On a terminal the line is rewritten after every pair; elsewhere it is
 * written every 100 pairs and at the decision. */
static void show_sprt(void *ctx, const rating_sprt_result *r, long long pairs) {
  cli_progress *line = ctx;
  if (!isatty(STDERR_FILENO) && !r->decision && pairs % 100) return;
  cli_progress_clear(line);
  fprintf(stderr, "%sSPRT: LLR %.3f (%.3f, %.3f), %lld pairs%s\n", isatty(STDERR_FILENO) ? "\r" : "",
          r->llr, r->lower, r->upper, pairs, r->decision ? ": decided" : "");
}

void cli_watch_tournament(tournament *t, cli_progress *line) {
  t->observer = (tournament_observer){line, show_progress, show_sprt};
}

/* The run's standings as JSON (docs/JSON.md). 0, or the exit code. */
static int print_json_standings(const char *cmd, store *db, int64_t run_id) {
  char err[ERROR_MAX];
  plot_run *pr;
  if (plot_run_load(db, run_id, &pr, err, sizeof err)) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  int bad = cli_json_standings_sprt(stdout, pr, db, err, sizeof err);
  plot_run_free(pr);
  return bad ? cli_error(cmd, "%s", err), CLI_EXIT_FAIL : 0;
}

/* --resume RUN: the stored run into t (tournament_reopen), locked, marked
 * running. 0, or the exit code; *done when there is nothing to play (the
 * run is finished: its standings are printed). */
static int resume_run(const char *cmd, const tournament_args *a, tournament *t, store **db,
                      int *locked, int *done) {
  char err[ERROR_MAX];
  if (a->config_given)
    return cli_error(cmd, "--resume takes the configuration of the run: only --db, --threads "
                          "and --quiet go with it");
  if (store_open(a->db, 0, db, err, sizeof err)) return cli_error(cmd, "%s", err);
  int rc = tournament_reopen(*db, a->resume, a->threads_set ? (int)a->threads : 0, t, err,
                             sizeof err);
  if (rc < 0) return cli_error(cmd, "%s", err), rc == -2 ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
  if (rc == 1) {
    fprintf(stderr, "oware tournament: run %lld is already finished\n", a->resume);
    *done = 1;
    if (a->json) return print_json_standings(cmd, *db, t->run.id);
    return tournament_print_standings(*db, t->run.id, stdout, err, sizeof err) ? CLI_EXIT_FAIL : 0;
  }
  *locked = 1;
  if (tournament_has_clock(t))
    fprintf(stderr, "oware %s: note: run %lld plays on game clocks (tc=): the games from here on "
                    "are new ones, not those an uninterrupted run would have played\n",
            cmd, (long long)t->run.id);
  return 0;
}

/* A new run from the options into t, stored in the database and locked
 * (a --resume of it meanwhile is refused). Everything is checked before the
 * database is touched. 0, or the exit code. */
static int tournament_new(const char *cmd, int argc, char **argv, const tournament_args *a,
                          tournament *t, store **db, int *locked) {
  char err[ERROR_MAX];
  const tournament_config *c = &a->c;
  if (!c->players == !c->players_file)
    return cli_error(cmd, "give the players with --players 'SPEC;SPEC;...' or --players-file FILE");
  char *list = c->players ? strdup(c->players) : cli_read_file(cmd, c->players_file);
  if (!list) return CLI_EXIT_USAGE;
  char *command = cli_quote_args("oware tournament", argc, argv);
  int d = command ? tournament_describe(c, list, (int)a->threads, command, t, err, sizeof err)
                  : (snprintf(err, sizeof err, "out of memory"), -2);
  free(list);
  free(command);
  if (d) return cli_error(cmd, "%s", err), d == -2 ? CLI_EXIT_FAIL : CLI_EXIT_USAGE;
  store_run *r = &t->run;
  for (int i = 0; i < r->nplayers; i++) {
    player_config cfg;
    if (!player_parse_spec(r->player_spec[i], &cfg, err, sizeof err)) {
      cli_warn_threads(cmd, &cfg);
      player_config_free(&cfg);
    }
  }
  if (tournament_has_clock(t)) cli_warn_clocks(cmd);
  int reuse = tournament_openings_repeat(t);
  if (reuse)
    fprintf(stderr,
            "oware %s: warning: --openings %s holds %d positions and a pairing may play up to %lld "
            "pairs: they are taken again from the first, and players whose moves depend on the "
            "position alone (minimax by depth or nodes, without noise) play a repeated pair the "
            "same way, which the SPRT and the ratings count again; file:PATH+random:PLIES draws "
            "new lines from each position\n",
            cmd, r->openings, reuse, (long long)r->rounds * t->pairs_per_series);
  int rc = cli_store_new_run(cmd, a->db, r, db);
  if (rc) return rc;
  if (store_run_lock(*db, r->id, err, sizeof err))
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  *locked = 1;
  return 0;
}

/* After the games: standings, ratings, the SPRT's verdict, --report, how
 * to resume. The exit code. */
static int tournament_after(const char *cmd, const tournament_args *a, tournament *t, store *db,
                            int res) {
  char err[ERROR_MAX];
  const store_run *r = &t->run;
  if (a->json) {
    /* The ratings are fitted and stored as without --json; only the tables
     * give way to the JSON. */
    FILE *sink = fopen("/dev/null", "w");
    int bad = !sink || rating_print_section(db, r->id, sink, err, sizeof err);
    if (sink) fclose(sink);
    if (bad) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
    if (print_json_standings(cmd, db, r->id)) return CLI_EXIT_FAIL;
  } else if (tournament_print_standings(db, r->id, stdout, err, sizeof err) ||
             rating_print_section(db, r->id, stdout, err, sizeof err)) {
    return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  }
  if (t->sprt_on && !a->json)
    printf("\nSPRT %s: %s (LLR %.3f, bounds %.3f %.3f) after %lld game pairs, counted in "
           "schedule order; games after the deciding pair are not stored\n",
           t->sprt.model == RATING_MODEL_NORMALIZED ? "(normalized Elo)" : "(logistic Elo)",
           rating_decision_name(t->sprt_result.decision), t->sprt_result.llr,
           t->sprt_result.lower, t->sprt_result.upper,
           t->sprt_match.penta[0] + t->sprt_match.penta[1] + t->sprt_match.penta[2] +
               t->sprt_match.penta[3] + t->sprt_match.penta[4]);
  if (a->report) {
    char dir[256];
    snprintf(dir, sizeof dir, "results/run-%lld", (long long)r->id);
    if (report_write(db, r->id, dir, stderr, err, sizeof err))
      return cli_error(cmd, "report: %s", err), CLI_EXIT_FAIL;
    printf("report: %s/index.html\n", dir);
  }
  if (res != 1) return CLI_EXIT_OK;
  fprintf(stderr, "oware tournament: run %lld interrupted; continue it with: oware tournament "
                  "--resume %lld --db %s\n",
          (long long)r->id, (long long)r->id, a->db);
  return 130;
}

int cli_tournament(int argc, char **argv) {
  const char *cmd = "tournament";
  tournament_args a;
  int prc, done = 0, locked = 0;
  if (parse_args(argc, argv, &a, &prc)) return prc;
  char err[ERROR_MAX];
  tournament *t = calloc(1, sizeof *t);
  if (!t) return cli_error(cmd, "out of memory"), CLI_EXIT_FAIL;
  store *db = NULL;
  store_run *r = &t->run;
  cli_progress line;
  cli_progress_init(&line, a.quiet);
  if (!a.quiet) cli_watch_tournament(t, &line);
  int rc = a.resume > 0 ? resume_run(cmd, &a, t, &db, &locked, &done)
                        : tournament_new(cmd, argc, argv, &a, t, &db, &locked);
  if (rc || done) goto out;
  if (!a.quiet)
    fprintf(stderr, "run %lld: %d players, %d variant(s), %d series of %s, %d thread(s), seed %llu, db %s\n",
            (long long)r->id, r->nplayers, r->nvariants, t->nseries, r->format, r->threads,
            (unsigned long long)r->seed, a.db);
  cli_catch_stop(&stop_flag, "\noware: stopping after the games in progress (Ctrl-C again to quit at once)\n");
  int res = tournament_play(t, db, &stop_flag, err, sizeof err);
  cli_release_stop();
  if (res < 0) {
    fprintf(stderr, "oware tournament: run %lld failed: %s\n", (long long)r->id, err);
    rc = CLI_EXIT_FAIL;
  } else {
    rc = tournament_after(cmd, &a, t, db, res);
  }
out:
  if (locked) store_run_unlock(db, r->id, err, sizeof err);
  if (db) store_close(db);
  tournament_free(t);
  free(t);
  return rc;
}

/* ---- oware runs ---- */

typedef struct runs_out {
  store *db;
  int json, n;
} runs_out;

static int print_run(void *ctx, const store_run *r) {
  runs_out *o = ctx;
  store *db = o->db;
  if (o->json) {
    fputs(o->n++ ? ",\n" : "\n", stdout);
    cli_json_run(stdout, r, store_games_count(db, r->id));
    return 0;
  }
  printf("%5lld  %-11s %-20.20s %-11s %3d players %7lld games  %s\n", (long long)r->id,
         store_status_name(r->status), r->name, store_kind_name(r->kind), r->nplayers,
         store_games_count(db, r->id), r->started);
  return 0;
}

int cli_runs(int argc, char **argv) {
  const char *cmd = "runs", *db_path;
  int nargs, prc, json = 0;
  cli_option opts[] = {
      CLI_O_TEXT("db", &db_path, "PATH", DEFAULT_DB, "the SQLite database"),
      CLI_O_FLAG("json", &json, "print {\"runs\": [...]} (docs/JSON.md)"),
      CLI_END,
  };
  cli_command_spec spec = {
      cmd, "usage: oware runs [--db PATH] [--json]\nLists the runs stored in the database, newest first.\n",
      NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  store *db;
  char err[ERROR_MAX];
  if (store_open_readonly(db_path, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
  runs_out o = {db, json, 0};
  if (json) fputs("{\"runs\":[", stdout);
  int rc = store_runs_foreach(db, print_run, &o, err, sizeof err);
  store_close(db);
  if (rc) return cli_error(cmd, "%s", err), CLI_EXIT_FAIL;
  if (json) fputs("]}\n", stdout);
  return fflush(stdout) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* ---- oware export ---- */

typedef struct exporter {
  FILE *out;
  const char *out_name; /* for messages */
  const store_run *run;
  int csv, pgn;
  int failed;
  char err[ERROR_MAX];
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
  char s0[16], s1[16];
  notation_format_half(g->score2[0], s0, sizeof s0);
  notation_format_half(g->score2[1], s1, sizeof s1);
  if (e->csv) {
    /* Free text (variant, detail) last, so that simple tools can cut. */
    fprintf(e->out, "%d,%d,%d,", g->series_no, g->game_no, g->round);
    csv_field(e->out, r->player_name[g->south_idx], 0);
    csv_field(e->out, r->player_name[g->north_idx], 0);
    csv_field(e->out, g->opening, 0);
    csv_field(e->out, g->moves, 0);
    fprintf(e->out, "%s,%s,%s,%d,%s,%llu,%.3f,", s0, s1,
            game_winner_name(g->winner), g->plies, outcome_end_name(g->end),
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
  game gm;
  move_record *rec;
  if (store_game_records(g, &rec, e->err, sizeof e->err) < 0) return e->failed = 1;
  if (store_replay_game(r, g, &v, &gm, e->err, sizeof e->err)) {
    free(rec);
    e->failed = 1;
    return 1;
  }
  char round[48], date[16];
  snprintf(round, sizeof round, "%d.%d.%d", g->round + 1, g->series_no + 1, g->game_no + 1);
  snprintf(date, sizeof date, "%.4s.%.2s.%.2s", r->started, r->started + 5, r->started + 8);
  outcome ended = {.end = g->end, .winner = g->winner, .score2 = {g->score2[0], g->score2[1]}};
  notation_meta meta = {.event = r->name, .site = "oware-harness", .date = date, .round = round,
                        .south = r->player_name[g->south_idx],
                        .north = r->player_name[g->north_idx], .ended = &ended, .records = rec};
  if (notation_ogn_write(e->out, &gm, &meta)) {
    snprintf(e->err, sizeof e->err, "cannot write the game of series %d game %d to %s: %s",
             g->series_no, g->game_no, e->out_name, strerror(errno));
    e->failed = 1;
  }
  game_free(&gm);
  free(rec);
  return e->failed;
}

int cli_export(int argc, char **argv) {
  const char *cmd = "export", *db_path, *format = NULL, *outp = NULL;
  long long run = -1;
  int nargs, prc, fmt = -1;
  static const char *const formats[] = {"ogn", "csv", "pgn", NULL};
  cli_option opts[] = {
      CLI_O_INT("run", &run, 1, (long long)(~0ULL >> 1), "N", NULL, "the run ('oware runs')"),
      CLI_O_TEXT("db", &db_path, "PATH", DEFAULT_DB, "the SQLite database"),
      CLI_O_CHOICE("format", &fmt, formats, NULL, "OGN, CSV or PGN"),
      CLI_O_TEXT("out", &outp, "FILE", NULL, "write to FILE (default: standard output)"),
      CLI_END,
  };
  cli_command_spec spec = {
      cmd,
      "usage: oware export --run N --format ogn|csv|pgn [options]\n"
      "Writes the games of run N as OGN (one record a game, readable by Aualé),\n"
      "CSV (a header line, then a game a line) or PGN (one record a game, White =\n"
      "South, Black = North, Result 1-0/0-1/1/2-1/2: what Ordo and BayesElo read;\n"
      "docs/PGN.md), to FILE or standard output.\n",
      NULL, opts, 0};
  if (cli_parse(&spec, argc, argv, NULL, &nargs, &prc)) return prc;
  if (fmt >= 0) format = formats[fmt];
  if (run < 0) return cli_error(cmd, "--run N is needed ('oware runs' lists them)");
  if (!format) return cli_error(cmd, "--format must be ogn, csv or pgn");
  if (outp && cli_check_output(cmd, "--out", outp)) return CLI_EXIT_USAGE;
  store *db;
  char err[ERROR_MAX];
  if (store_open_readonly(db_path, &db, err, sizeof err)) return cli_error(cmd, "%s", err);
  store_run *r = calloc(1, sizeof *r);
  if (!r || store_run_load(db, run, r, err, sizeof err)) {
    store_close(db);
    store_run_free(r);
    free(r);
    return cli_error(cmd, "%s", r ? err : "out of memory");
  }
  /* A file is written whole or not at all: a temporary file, renamed at the end. */
  outfile of = {0};
  if (outp && cli_out_open(cmd, &of, outp)) {
    store_close(db);
    store_run_free(r);
    free(r);
    return CLI_EXIT_FAIL;
  }
  FILE *out = outp ? of.f : stdout;
  exporter e = {out, outp ? outp : "standard output", r, !strcmp(format, "csv"),
                !strcmp(format, "pgn"), 0, ""};
  if (e.csv)
    fprintf(out, "series,game,round,south,north,opening,moves,score_south,score_north,winner,"
                 "plies,end,seed,seconds,variant,detail\n");
  int rc = store_games_foreach(db, run, export_game, &e, err, sizeof err);
  store_close(db);
  store_run_free(r);
  free(r);
  if (e.failed || rc) {
    if (outp) cli_out_abort(&of);
    return cli_error(cmd, "%s", e.failed ? e.err : err), CLI_EXIT_FAIL;
  }
  if (outp && cli_out_commit(cmd, &of)) return CLI_EXIT_FAIL;
  return CLI_EXIT_OK; /* standard output is checked by main */
}
