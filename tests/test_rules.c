/* test_rules.c: runs the hand-worked cases of data/rules.txt through core/ and the reference. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/board.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/variant.h"
#include "tests/reference/ref_rules.h"

#define MAX_MOVES 256
#define LINE_MAX_LEN 2048

/* One line of rules.txt, split into its five trimmed fields. */
typedef struct rule_case {
  const char *file;
  int line;
  char *variant, *start, *moves, *expected, *status;
  int illegal; /* K of "illegal K", else 0 */
} rule_case;

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

/* Splits `text` (modified in place) into a case. Returns 0, -1 for a blank
 * or comment line, or -2 with a message in err for a malformed line. */
static int parse_case(char *text, rule_case *c, char *err, size_t errlen) {
  char *f[5];
  int n = 0;
  char *s = trim(text);
  if (!*s || *s == '#') return -1;
  for (char *p = s;; n++) {
    char *bar = strchr(p, '|');
    if (n == 5) {
      snprintf(err, errlen, "more than 5 '|'-separated fields");
      return -2;
    }
    if (bar) *bar = '\0';
    f[n] = trim(p);
    if (!bar) {
      n++;
      break;
    }
    p = bar + 1;
  }
  if (n != 5) {
    snprintf(err, errlen, "%d fields, expected 5: variant | start | moves | expected | status", n);
    return -2;
  }
  c->variant = f[0];
  c->start = f[1];
  c->moves = f[2];
  c->expected = f[3];
  c->status = f[4];
  c->illegal = 0;
  for (int i = 0; i < 5; i++)
    if (!*f[i]) {
      snprintf(err, errlen, "field %d is empty", i + 1);
      return -2;
    }
  if (!strncmp(c->expected, "illegal", 7)) {
    char *end;
    long k = strtol(c->expected + 7, &end, 10);
    if (k < 1 || *trim(end)) {
      snprintf(err, errlen, "expected 'illegal K' with K >= 1, got '%s'", c->expected);
      return -2;
    }
    c->illegal = (int)k;
    if (strcmp(c->status, "-")) {
      snprintf(err, errlen, "status of an 'illegal K' case must be '-', got '%s'", c->status);
      return -2;
    }
  } else if (strcmp(c->status, "playing") && strncmp(c->status, "over ", 5)) {
    snprintf(err, errlen, "status must be 'playing' or 'over REASON S-N WINNER', got '%s'",
             c->status);
    return -2;
  }
  return 0;
}

static const char *winner_name(int w) {
  return w == 0 ? "south" : w == 1 ? "north" : w == -1 ? "draw" : "?";
}

static void format_status(int playing, const char *reason, const int score2[2], int winner,
                          char *buf, size_t len) {
  char s[16], n[16];
  if (playing) {
    snprintf(buf, len, "playing");
    return;
  }
  notation_format_half(score2[0], s, sizeof s);
  notation_format_half(score2[1], n, sizeof n);
  snprintf(buf, len, "over %s %s-%s %s", reason, s, n, winner_name(winner));
}

/* Compares got with the case's expectation; writes a message naming the line. */
static int check(const rule_case *c, const char *who, const char *what, const char *got,
                 const char *want, char *msg, size_t len) {
  if (!strcmp(got, want)) return 0;
  snprintf(msg, len, "%s:%d: %s: %s is\n    %s\n  expected\n    %s\n  case: %s | %s | %s", c->file,
           c->line, who, what, got, want, c->variant, c->start, c->moves);
  return 1;
}

/* Plays the case with core. Returns 0 when it matches, else 1 with msg. */
static int run_core(const rule_case *c, char *msg, size_t len) {
  variant v;
  board start;
  game g;
  char err[256], pos[NOTATION_POSITION_MAX], st[128];
  int moves[MAX_MOVES], n = 0;
  if (variant_parse(c->variant, &v, err, sizeof err)) {
    snprintf(msg, len, "%s:%d: %s", c->file, c->line, err);
    return 1;
  }
  if (!strcmp(c->start, "start")) {
    board_start(&start, &v);
  } else if (notation_parse_position(c->start, &v, &start, err, sizeof err)) {
    snprintf(msg, len, "%s:%d: start position: %s", c->file, c->line, err);
    return 1;
  }
  if (strcmp(c->moves, "-")) {
    n = notation_parse_moves(c->moves, &v, moves, MAX_MOVES, err, sizeof err);
    if (n < 0) {
      snprintf(msg, len, "%s:%d: moves: %s", c->file, c->line, err);
      return 1;
    }
  }
  if (c->illegal > n) {
    snprintf(msg, len, "%s:%d: 'illegal %d' but only %d moves", c->file, c->line, c->illegal, n);
    return 1;
  }
  if (game_init(&g, &v, &start)) {
    snprintf(msg, len, "%s:%d: game_init failed", c->file, c->line);
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < n && !bad; i++) {
    int rc = game_play(&g, moves[i]);
    char letter = notation_move_letter(&v, moves[i]);
    if (i + 1 == c->illegal) {
      if (rc != -1) {
        snprintf(msg, len, "%s:%d: core: move %d (%c) was accepted, expected illegal", c->file,
                 c->line, i + 1, letter);
        bad = 1;
      }
      break;
    }
    if (rc != 0) {
      notation_format_position(&g.pos, &v, NULL, pos, sizeof pos);
      snprintf(msg, len, "%s:%d: core: move %d (%c) refused (%d) in %s", c->file, c->line, i + 1,
               letter, rc, pos);
      bad = 1;
    }
  }
  if (!bad && !c->illegal) {
    board shown;
    int over = g.end != BOARD_END_NONE;
    game_shown_position(&g, &shown);
    notation_format_position(&shown, &v, over ? g.score2 : NULL, pos, sizeof pos);
    format_status(!over, board_end_name(g.end), g.score2, g.winner, st, sizeof st);
    bad = check(c, "core", "position", pos, c->expected, msg, len) ||
          check(c, "core", "status", st, c->status, msg, len);
  }
  game_free(&g);
  return bad;
}

/* The reference reads the position string and move letters itself. */
static int ref_parse_position(const char *text, const ref_variant *v, ref_pos *p) {
  const char *s = text;
  memset(p, 0, sizeof *p);
  for (int i = 0; i < ref_pits(v) + 2; i++) {
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '-' || x < 0) return -1;
    if (i < ref_pits(v))
      p->house[i] = (int)x;
    else
      p->store[i - ref_pits(v)] = (int)x;
    s = end + 1;
  }
  if (!strcmp(s, "S"))
    p->side = REF_SOUTH;
  else if (!strcmp(s, "N"))
    p->side = REF_NORTH;
  else
    return -1;
  return 0;
}

static int ref_letter(const ref_variant *v, char ch) {
  if (ch >= 'A' && ch < 'A' + v->houses) return ch - 'A';
  if (ch >= 'a' && ch < 'a' + v->houses) return v->houses + ch - 'a';
  return -1;
}

static void to_ref(const variant *v, ref_variant *r) {
  static const int gs[] = {REF_GS_NOTHING, REF_GS_FORBIDDEN, REF_GS_ALL, REF_GS_WIN};
  r->houses = v->houses;
  r->seeds = v->seeds;
  r->lap_fill = v->lap == VARIANT_LAP_FILL;
  r->grand_slam = gs[v->grand_slam];
  r->feed_must = v->feeding == VARIANT_FEED_MUST;
  r->repetition = v->repetition;
  r->cycle_split = v->cycle == VARIANT_CYCLE_SPLIT;
  r->max_plies = v->max_plies;
}

/* Plays the case with the reference. Returns 0 when it matches, else 1. */
static int run_ref(const rule_case *c, char *msg, size_t len) {
  static const char *const reasons[] = {"playing", "majority", "no-move", "repetition",
                                        "ply-limit"};
  variant cv;
  ref_variant v;
  ref_pos start;
  ref_game g;
  char err[256], pos[NOTATION_POSITION_MAX], st[128];
  if (variant_parse(c->variant, &cv, err, sizeof err)) {
    snprintf(msg, len, "%s:%d: %s", c->file, c->line, err);
    return 1;
  }
  to_ref(&cv, &v);
  if (!strcmp(c->start, "start")) {
    ref_start(&start, &v);
  } else if (ref_parse_position(c->start, &v, &start)) {
    snprintf(msg, len, "%s:%d: reference cannot read the start position", c->file, c->line);
    return 1;
  }
  if (ref_game_init(&g, &v, &start)) {
    snprintf(msg, len, "%s:%d: ref_game_init failed", c->file, c->line);
    return 1;
  }
  int bad = 0, k = 0;
  for (const char *s = strcmp(c->moves, "-") ? c->moves : ""; *s && !bad; s++) {
    if (isspace((unsigned char)*s)) continue;
    int m = ref_letter(&v, *s), rc;
    k++;
    if (m < 0) {
      snprintf(msg, len, "%s:%d: reference: bad move letter '%c'", c->file, c->line, *s);
      bad = 1;
      break;
    }
    rc = ref_game_play(&g, m, NULL);
    if (k == c->illegal) {
      if (rc != -1) {
        snprintf(msg, len, "%s:%d: reference: move %d (%c) was accepted, expected illegal",
                 c->file, c->line, k, *s);
        bad = 1;
      }
      break;
    }
    if (rc != 0) {
      snprintf(msg, len, "%s:%d: reference: move %d (%c) refused", c->file, c->line, k, *s);
      bad = 1;
    }
  }
  if (!bad && !c->illegal) {
    ref_pos shown;
    int over = g.reason != REF_PLAYING;
    ref_game_shown(&g, &shown);
    ref_format_position(&shown, &v, over ? g.score2 : NULL, pos, sizeof pos);
    format_status(!over, reasons[g.reason], g.score2, g.winner, st, sizeof st);
    bad = check(c, "reference", "position", pos, c->expected, msg, len) ||
          check(c, "reference", "status", st, c->status, msg, len);
  }
  ref_game_free(&g);
  return bad;
}

/* Runs one line; returns the number of failures (0..2) and prints them. */
static int run_line(const char *file, int line, const char *text, int *cases) {
  char buf[LINE_MAX_LEN], err[256], msg[2048];
  rule_case c;
  int fails = 0;
  snprintf(buf, sizeof buf, "%s", text);
  int r = parse_case(buf, &c, err, sizeof err);
  if (r == -1) return 0;
  if (r == -2) {
    print_message("%s:%d: malformed case: %s\n", file, line, err);
    return 1;
  }
  c.file = file;
  c.line = line;
  (*cases)++;
  if (run_core(&c, msg, sizeof msg)) {
    print_message("%s\n", msg);
    fails++;
  }
  if (run_ref(&c, msg, sizeof msg)) {
    print_message("%s\n", msg);
    fails++;
  }
  return fails;
}

static void test_rules_file(void **state) {
  const char *path = OWARE_TEST_DATA "/rules.txt";
  char text[LINE_MAX_LEN];
  int line = 0, cases = 0, fails = 0;
  (void)state;
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot open %s", path);
  while (fgets(text, sizeof text, f)) {
    line++;
    if (!strchr(text, '\n') && !feof(f)) {
      print_message("%s:%d: line longer than %d characters\n", path, line, LINE_MAX_LEN - 2);
      fails++;
      int ch;
      while ((ch = fgetc(f)) != EOF && ch != '\n') {
      }
      continue;
    }
    fails += run_line(path, line, text, &cases);
  }
  fclose(f);
  print_message("[rules] %d cases from %s, %d failures\n", cases, path, fails);
  if (fails) fail_msg("%d failures in %s (see above)", fails, path);
  assert_true(cases >= 40);
}

/* The runner itself must notice a wrong expectation and a malformed line. */
static void test_runner_catches_errors(void **state) {
  int cases = 0;
  (void)state;
  print_message("[rules] the next messages are expected:\n");
  /* Wrong position (f should be 4): both core and the reference fail. */
  assert_int_equal(
      run_line("self-test", 1, "abapa | start | F | 4-4-4-4-4-0-5-5-5-5-4-5-0-0-N | playing",
               &cases),
      2);
  /* Wrong status. */
  assert_int_equal(
      run_line("self-test", 2,
               "abapa | start | F | 4-4-4-4-4-0-5-5-5-5-4-4-0-0-N | over majority 0-0 draw",
               &cases),
      2);
  /* A legal move said to be illegal. */
  assert_int_equal(run_line("self-test", 3, "abapa | start | F | illegal 1 | -", &cases), 2);
  /* Malformed lines. */
  assert_int_equal(run_line("self-test", 4, "abapa | start | F | playing", &cases), 1);
  assert_int_equal(run_line("self-test", 5, "abapa | start | F | illegal x | -", &cases), 1);
  assert_int_equal(run_line("self-test", 6, "nosuch | start | F | x | playing", &cases), 2);
  /* And a right case passes. */
  assert_int_equal(
      run_line("self-test", 7, "abapa | start | F | 4-4-4-4-4-0-5-5-5-5-4-4-0-0-N | playing",
               &cases),
      0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rules_file),
      cmocka_unit_test(test_runner_catches_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
