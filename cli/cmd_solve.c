/* cmd_solve.c: `oware solve`: a variant's start position (or a position) solved on the endgame tables, built first when missing. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/progress.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/notation.h"
#include "core/path.h"
#include "egdb/egdb.h"
#include "egdb/egdb_solve.h"

static const char solve_help[] =
    "usage: oware solve [POSITION] [--variant V] [--dir D] [--threads T] [--plan] [--json] [--quiet]\n"
    "The value under perfect play of the variant's start position (or of POSITION,\n"
    "e.g. 2-2-2-2-2-2-0-0-S for abapa,houses=3,seeds=2), with a line of perfect play,\n"
    "read off the endgame tables (docs/EGDB.md). The tables it needs (every seed\n"
    "count up to the position's) that are not in the folder are built first, after\n"
    "saying how many positions, how much memory and about how long; a board whose\n"
    "tables cannot be built here is refused with the reason. A cycle-sensitive value\n"
    "is printed as bounds, with what decides it under each cycle rule.\n";

static void format_bytes(uint64_t b, char *buf, size_t len) {
  if (b >= 1073741824ULL)
    snprintf(buf, len, "%.1f GiB", (double)b / 1073741824.0);
  else
    snprintf(buf, len, "%.1f MiB", (double)b / 1048576.0);
}

/* "tables: building KEY 0..N in DIR (K there): P positions, M of memory (fast layout), about T". */
static void print_plan(FILE *f, const char *key, const char *dir, const egdb_solve_plan *p) {
  char mem[32], t[32];
  if (!p->positions) {
    fprintf(f, "tables: %s/%s has 0..%d\n", dir, key, p->seeds);
    return;
  }
  format_bytes(p->memory, mem, sizeof mem);
  cli_progress_duration(p->seconds, t, sizeof t);
  fprintf(f, "tables: building %s 0..%d in %s (%d there): %llu positions, %s of memory "
             "(%s layout), about %s\n",
          key, p->seeds, dir, p->have, (unsigned long long)p->positions, mem,
          p->lean ? "lean" : "fast", t);
}

/* Builds what the plan says is missing. 0, or an exit code after the error. */
static int build_missing(const char *cmd, const variant *v, const char *dir, int threads, int quiet,
                         const egdb_solve_plan *plan, double *seconds) {
  char err[ERROR_MAX];
  cli_progress line;
  cli_progress_init(&line, quiet);
  cli_progress_every(&line, 30);
  egdb_build_stats st;
  int rc = egdb_build(v, dir, plan->seeds, threads, cli_egdb_progress, &line, &st, err, sizeof err);
  cli_progress_clear(&line);
  if (rc) {
    cli_error(cmd, "%s", err);
    return CLI_EXIT_FAIL;
  }
  *seconds = st.seconds;
  return 0;
}

/* The line's moves as letters separated by spaces (buf of 2 * plies + 1). */
static void format_line(const variant *v, const egdb_solve_result *r, char *buf) {
  char *p = buf;
  for (int i = 0; i < r->plies; i++) {
    if (i) *p++ = ' ';
    *p++ = notation_move_letter(v, r->moves[i]);
  }
  *p = '\0';
}

static const char *side_name(int s) { return s == BOARD_SOUTH ? "South" : "North"; }

/* The mover's margin over its opponent in half seeds at the end, for a
 * share x2 (half seeds) of the board's n seeds, stores counted. */
static int margin2(const board *b, int n, int x2) {
  const int s = b->side;
  return 2 * b->store[s] + x2 - (2 * b->store[1 - s] + 2 * n - x2);
}

static void print_margin(const char *who, int m2) {
  char h[16];
  notation_format_half(m2 < 0 ? -m2 : m2, h, sizeof h);
  if (m2 > 0)
    printf("%s wins by %s", who, h);
  else if (m2 < 0)
    printf("%s loses by %s", who, h);
  else
    printf("draw");
}

/* What decides a cycle-sensitive value under each cycle rule (text). */
static void print_cycle_rules(const variant *v, const egdb_value *x, const char *vtext,
                              const char *pos, const char *dir) {
  printf("  own (repetition, each side takes its own row): the game's history decides "
         "(how often each position has occurred): between %d and %d\n",
         x->lower, x->upper);
  if (x->split2 >= 0) {
    char h[16];
    notation_format_half(x->split2, h, sizeof h);
    printf("  split (endless play shares the seeds left): %s, exact (the split table)\n", h);
  } else {
    printf("  split (endless play shares the seeds left): the split table decides: "
           "oware solve %s --variant '%s,cycle=split' --dir '%s'\n", pos, vtext, dir);
  }
  printf("  a ply limit (max_plies%s): the plies left decide, between %d and %d\n",
         v->max_plies ? "" : ", off in this variant", x->lower, x->upper);
}

static void print_text(const variant *v, const char *vtext, const char *dir, const board *b,
                       const char *pos, const egdb_solve_result *r) {
  const egdb_value *x = &r->value;
  const char *who = side_name(b->side);
  printf("position %s: %d seeds on the board, %s to move\n", pos, x->n, who);
  if (r->goal == EGDB_SOLVE_EXACT) {
    printf("value: %s ends with %d of the %d seeds, exact (every cycle rule)\n", who, x->lower, x->n);
    printf("result: ");
    print_margin(who, margin2(b, x->n, 2 * x->lower));
    printf("\n");
  } else {
    printf("value: %s ends with %d to %d of the %d seeds, cycle-sensitive\n", who, x->lower,
           x->upper, x->n);
    print_cycle_rules(v, x, vtext, pos, dir);
    printf("result: from ");
    print_margin(who, margin2(b, x->n, 2 * x->lower));
    printf(" to ");
    print_margin(who, margin2(b, x->n, 2 * x->upper));
    if (x->split2 >= 0) {
      printf("; split: ");
      print_margin(who, margin2(b, x->n, x->split2));
    }
    printf("\n");
  }
  char line[2 * EGDB_SOLVE_MAX_LINE + 1], s0[16], s1[16];
  format_line(v, r, line);
  notation_format_half(r->score2[0], s0, sizeof s0);
  notation_format_half(r->score2[1], s1, sizeof s1);
  printf("line (%d plies%s): %s\n", r->plies,
         r->goal == EGDB_SOLVE_EXACT ? "" : ", the mover securing its lower bound", line);
  printf("end: %s after ply %d%s, South %s North %s", board_end_name(r->end), r->plies,
         r->end == BOARD_END_REPETITION ? " (neither side can force a capture: play goes round)" : "",
         s0, s1);
  if (r->majority_ply >= 0) printf(" (majority reached after ply %d)", r->majority_ply);
  printf("\n");
}

/* "south", "north", "draw" when every cycle rule gives that result, else
 * null (the mover wins, draws or loses by the cycle rule). */
static const char *json_winner(const board *b, const egdb_value *x) {
  static const char *const side[2] = {"\"south\"", "\"north\""};
  const int lo = margin2(b, x->n, 2 * x->lower), hi = margin2(b, x->n, 2 * x->upper);
  return lo > 0 ? side[b->side] : hi < 0 ? side[1 - b->side] : !lo && !hi ? "\"draw\"" : "null";
}

static void json_margins(const board *b, const egdb_solve_result *r) {
  const egdb_value *x = &r->value;
  printf(",\"winner\":%s,\"margin\":{\"lower\":", json_winner(b, x));
  cli_json_num(stdout, margin2(b, x->n, 2 * x->lower) / 2.0);
  printf(",\"upper\":");
  cli_json_num(stdout, margin2(b, x->n, 2 * x->upper) / 2.0);
  printf(",\"split\":");
  if (x->split2 >= 0)
    cli_json_num(stdout, margin2(b, x->n, x->split2) / 2.0);
  else
    printf("null");
  printf("}");
}

/* The object's first fields, shared by the result and the plan: the
 * variant, its tables, the position and what the build takes, up to
 * "estimate_seconds" (the build object left open). */
static void print_json_head(const char *vtext, const char *key, const char *dir, const board *b,
                            const char *pos, const egdb_solve_plan *p, int seeds) {
  printf("{\"variant\":");
  cli_json_str(stdout, vtext);
  printf(",\"tables\":");
  cli_json_str(stdout, key);
  printf(",\"dir\":");
  cli_json_str(stdout, dir);
  printf(",\"position\":");
  cli_json_str(stdout, pos);
  printf(",\"seeds\":%d,\"mover\":\"%s\"", seeds, b->side == BOARD_SOUTH ? "south" : "north");
  printf(",\"build\":{\"present\":%d,\"positions\":%llu,\"memory\":%llu,\"estimate_seconds\":",
         p->have, (unsigned long long)p->positions, (unsigned long long)p->memory);
  cli_json_num(stdout, p->seconds);
}

static void print_json(const char *vtext, const char *key, const char *dir, const board *b,
                       const char *pos, const egdb_solve_plan *p, double built_s,
                       const egdb_solve_result *r, const variant *v) {
  const egdb_value *x = &r->value;
  print_json_head(vtext, key, dir, b, pos, p, x->n);
  printf(",\"seconds\":");
  cli_json_num(stdout, built_s);
  printf("},\"value\":{\"lower\":%d,\"upper\":%d,\"exact\":%s,\"split\":", x->lower, x->upper,
         r->goal == EGDB_SOLVE_EXACT ? "true" : "false");
  if (x->split2 >= 0)
    cli_json_num(stdout, x->split2 / 2.0);
  else
    printf("null");
  printf("}");
  json_margins(b, r);
  char line[2 * EGDB_SOLVE_MAX_LINE + 1];
  format_line(v, r, line);
  printf(",\"line\":{\"goal\":\"%s\",\"plies\":%d,\"moves\":",
         r->goal == EGDB_SOLVE_EXACT ? "exact" : "lower", r->plies);
  cli_json_str(stdout, line);
  printf(",\"end\":\"%s\",\"score\":[", board_end_name(r->end));
  cli_json_num(stdout, r->score2[0] / 2.0);
  printf(",");
  cli_json_num(stdout, r->score2[1] / 2.0);
  printf("],\"majority_ply\":");
  if (r->majority_ply >= 0)
    printf("%d", r->majority_ply);
  else
    printf("null");
  printf("}}\n");
}

/* --plan --json: the position and what the build would take, one object. */
static void print_plan_json(const char *vtext, const char *key, const char *dir, const board *b,
                            const char *pos, const egdb_solve_plan *p, int seeds) {
  print_json_head(vtext, key, dir, b, pos, p, seeds);
  printf("},\"plan\":true}\n");
}

typedef struct solve_args {
  const char *vtext, *dir, *pos;
  long long threads;
  int json, quiet, plan_only;
} solve_args;

/* Plans, builds and opens the tables for b; 0 with *db open, or an exit code. */
static int tables_for(const char *cmd, const solve_args *a, const variant *v, const char *key,
                      const board *b, egdb_solve_plan *plan, double *built_s, egdb **db) {
  char err[ERROR_MAX];
  int n = 0;
  for (int i = 0; i < v->pits; i++) n += b->pit[i];
  int rc = egdb_solve_plan_make(v, a->dir, n, (int)a->threads, plan, err, sizeof err);
  if (rc) return cli_error(cmd, "%s", err), rc == EGDB_EUNSUPPORTED ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
  if (plan->fits) print_plan(a->json ? stderr : stdout, key, a->dir, plan);
  if (!plan->fits) {
    cli_error(cmd, "cannot solve %s: %s", a->vtext, plan->why);
    return CLI_EXIT_FAIL;
  }
  if (a->plan_only) return -1;
  fflush(stdout);
  if (plan->positions && (rc = build_missing(cmd, v, a->dir, (int)a->threads, a->quiet, plan, built_s)))
    return rc;
  if ((rc = egdb_open(a->dir, v, n, EGDB_VERIFY, db, err, sizeof err)) != 0) {
    if (rc == EGDB_ECORRUPT) /* the plan counts the files there, not whether they are whole */
      cli_error(cmd, "%s; 'oware egdb build --variant %s --seeds %d --dir %s' builds it again (and "
                "keeps the tables that are whole)", err, a->vtext, n, a->dir);
    else
      cli_error(cmd, "%s", err);
    return CLI_EXIT_FAIL;
  }
  return 0;
}

static int solve_run(const char *cmd, const solve_args *a) {
  char err[ERROR_MAX], key[128], pos[NOTATION_POSITION_MAX];
  variant v;
  board b;
  if (cli_variant(cmd, a->vtext, &v)) return CLI_EXIT_USAGE;
  if (egdb_variant_key(&v, key, sizeof key, err, sizeof err)) return cli_error(cmd, "%s", err);
  if (!a->pos)
    board_start(&b, &v);
  else if (notation_parse_position(a->pos, &v, &b, err, sizeof err))
    return cli_error(cmd, "position '%s': %s", a->pos, err);
  notation_format_position(&b, &v, NULL, pos, sizeof pos);
  egdb_solve_plan plan;
  egdb *db = NULL;
  double built_s = 0;
  int rc = tables_for(cmd, a, &v, key, &b, &plan, &built_s, &db);
  if (rc < 0 && a->json) {
    int n = 0;
    for (int i = 0; i < v.pits; i++) n += b.pit[i];
    print_plan_json(a->vtext, key, a->dir, &b, pos, &plan, n);
  }
  if (rc) return rc < 0 ? CLI_EXIT_OK : rc;
  static egdb_solve_result r;
  rc = egdb_solve(db, &b, &r, err, sizeof err);
  if (rc) {
    cli_error(cmd, "%s", err);
  } else if (a->json) {
    print_json(a->vtext, key, a->dir, &b, pos, &plan, built_s, &r, &v);
  } else {
    printf("variant %s (tables %s)\n", a->vtext, key);
    print_text(&v, a->vtext, a->dir, &b, pos, &r);
  }
  egdb_close(db);
  return rc ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cli_solve(int argc, char **argv) {
  const char *cmd = "solve";
  solve_args a = {0};
  char dbuf[4096];
  char *posv[1];
  int nargs, prc;
  cli_option opts[] = {
      CLI_O_TEXT("variant", &a.vtext, "V", "abapa",
                 "rule variant, any board (houses=H,seeds=S); grand_slam=win is not supported"),
      CLI_O_TEXT("dir", &a.dir, "D", NULL, "folder of the endgame tables (default ~/.cache/oware/egdb)"),
      CLI_O_INT("threads", &a.threads, 1, 64, "T", "2", "threads of the build"),
      CLI_O_FLAG("plan", &a.plan_only, "say what the build would take, and stop"),
      CLI_O_FLAG("json", &a.json, "print the result as JSON (docs/JSON.md)"),
      CLI_O_FLAG("quiet", &a.quiet, "no progress line while building"),
      CLI_END,
  };
  cli_command_spec spec = {cmd, solve_help, NULL, opts, 1};
  if (cli_parse(&spec, argc, argv, posv, &nargs, &prc)) return prc;
  if (nargs) a.pos = posv[0];
  if (!a.dir) {
    path_cache(dbuf, sizeof dbuf, "egdb");
    a.dir = dbuf;
  } else if (!*a.dir) {
    a.dir = "."; /* the current folder, as the tables' paths read it */
  }
  return solve_run(cmd, &a);
}
