/* test_report.c: charts and reports (report/plot.c, report/report.c) from a fixture database that the test makes with `oware tournament`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "report/plot.h"
#include "report/report.h"
#include "store/store.h"
#include "tuner/tuning_store.h"

#define ERRLEN 2048

/* The fixture: a temporary folder with one database of three runs:
 *   run 1  round robin of 3 players (names with HTML in them), one variant,
 *          with three stored rating fits
 *   run 2  round robin of 4 players under two variants, its stored ratings
 *          deleted
 *   run 3  a run with tuning iterations and no games */
static char tmpdir[64];
static char dbpath[128];
static const char *const evil_name = "<script>alert('x')</script> & \"co\"";

static void path_in_tmp(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", tmpdir, name);
}

/* Runs argv (PATH lookup), stdout and stderr into out_path (or /dev/null).
 * Returns the exit status, or -1 when it did not exit. */
static int run(const char *const argv[], const char *out_path) {
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int fd = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execvp(argv[0], (char *const *)argv);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0) assert_int_equal(errno, EINTR);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot open %s: %s", path, strerror(errno));
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long n = ftell(f);
  assert_true(n >= 0);
  rewind(f);
  char *buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
  buf[n] = 0;
  fclose(f);
  if (len) *len = (size_t)n;
  return buf;
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A valid PNG header of the given size: the signature, then IHDR first. */
static void check_png(const char *path, uint32_t w, uint32_t h) {
  size_t n;
  char *buf = slurp(path, &n);
  const unsigned char *p = (const unsigned char *)buf;
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (n < 33 || memcmp(p, sig, 8)) fail_msg("%s: not a PNG file", path);
  if (be32(p + 8) != 13 || memcmp(p + 12, "IHDR", 4)) fail_msg("%s: no IHDR chunk first", path);
  if (be32(p + 16) != w || be32(p + 20) != h)
    fail_msg("%s: %ux%u, expected %ux%u", path, be32(p + 16), be32(p + 20), w, h);
  if (n < 2000) fail_msg("%s: only %zu bytes", path, n);
  free(buf);
}

/* Well-formed XML (xmllint), an <svg> of the given size. */
static void check_svg(const char *path, int w, int h) {
  char log[256];
  path_in_tmp(log, sizeof log, "xmllint.log");
  const char *argv[] = {"xmllint", "--noout", path, NULL};
  int rc = run(argv, log);
  if (rc == 127) fail_msg("xmllint is not installed (Debian package libxml2-utils)");
  if (rc) {
    char *msg = slurp(log, NULL);
    fail_msg("%s is not well-formed XML: %s", path, msg);
  }
  char *svg = slurp(path, NULL);
  char want[64];
  snprintf(want, sizeof want, "width=\"%d\" height=\"%d\"", w, h);
  if (!strstr(svg, "<svg") || !strstr(svg, want)) fail_msg("%s: no <svg %s>", path, want);
  free(svg);
}

static void check_chart(const char *dir, const char *kind, int w, int h) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s.png", dir, kind);
  check_png(p, (uint32_t)w, (uint32_t)h);
  snprintf(p, sizeof p, "%s/%s.svg", dir, kind);
  check_svg(p, w, h);
  snprintf(p, sizeof p, "%s/%s.dat", dir, kind);
  assert_true(file_exists(p));
}

static void rm_rf(const char *dir) {
  const char *argv[] = {"rm", "-rf", dir, NULL};
  run(argv, NULL);
}

static void store_rating_row(store_rating *r, int64_t run, const char *name, double elo,
                             long long total) {
  memset(r, 0, sizeof *r);
  r->run_id = run;
  snprintf(r->scope, sizeof r->scope, "run %lld", (long long)run);
  snprintf(r->player, sizeof r->player, "%s", name);
  r->elo = elo;
  r->lo = elo - 3000.0 / sqrt((double)total);
  r->hi = elo + 3000.0 / sqrt((double)total);
  r->games = total * 2 / 3;
  r->score = 0.5 + elo / 1000.0;
  r->draws = 0.1;
  r->games_total = total;
}

static int group_setup(void **state) {
  (void)state;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/oware-report-XXXXXX");
  if (!mkdtemp(tmpdir)) return -1;
  path_in_tmp(dbpath, sizeof dbpath, "fixture.db");
  char log[256], players[256], name[128];
  path_in_tmp(log, sizeof log, "tournament.log");
  snprintf(players, sizeof players, "random;greedy;random:name=<b>R&D</b>");
  snprintf(name, sizeof name, "%s", evil_name);
  const char *t1[] = {OWARE_BIN, "tournament", "--players", players, "--format", "games:6",
                "--db", dbpath, "--seed", "7", "--threads", "2", "--quiet",
                "--name", name, NULL};
  if (run(t1, log)) {
    fprintf(stderr, "oware tournament failed: see %s\n", log);
    return -1;
  }
  const char *t2[] = {OWARE_BIN, "tournament", "--players",
                      "random;greedy;minimax:depth=2;mcts:playouts=50",
                "--variant", "abapa;abapa,seeds=3", "--format", "games:4", "--db", dbpath,
                "--seed", "8", "--threads", "2", "--quiet", "--name", "two variants", NULL};
  if (run(t2, log)) {
    fprintf(stderr, "oware tournament (run 2) failed: see %s\n", log);
    return -1;
  }
  /* Run 2 without the ratings the tournament stored as it went. */
  sqlite3 *sq;
  if (sqlite3_open(dbpath, &sq) != SQLITE_OK ||
      sqlite3_exec(sq, "DELETE FROM ratings WHERE run_id = 2", NULL, NULL, NULL) != SQLITE_OK) {
    fprintf(stderr, "cannot delete the ratings of run 2: %s\n", sqlite3_errmsg(sq));
    sqlite3_close(sq);
    return -1;
  }
  sqlite3_close(sq);
  /* Three rating fits of run 1 over its course (after those of the
   * tournament), and a run with tuning. */
  store *db;
  char err[ERRLEN];
  if (store_open(dbpath, 0, &db, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  long long games = store_games_count(db, 1);
  const char *names[3] = {"random", "greedy", "<b>R&D</b>"};
  double elos[3] = {-150, 250, -100};
  for (int b = 1; b <= 3; b++) {
    store_rating rows[3];
    for (int i = 0; i < 3; i++)
      store_rating_row(&rows[i], 1, names[i], elos[i] * b / 3.0, games * b / 3);
    if (store_ratings_insert(db, rows, 3, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      store_close(db);
      return -1;
    }
  }
  store_run *r = calloc(1, sizeof *r);
  store_run_set(&r->name, "spsa fixture");
  r->kind = STORE_ROUND_ROBIN;
  store_run_set(&r->format, "games:2");
  store_run_set(&r->openings, "random:2");
  r->rounds = 1, r->threads = 1, r->seed = 3;
  store_run_set(&r->command, "oware tune spsa (fixture)");
  store_run_add_player(r, "tuned", "minimax:depth=2,name=tuned");
  store_run_add_player(r, "base", "minimax:depth=2,name=base");
  store_run_add_variant(r, "abapa");
  if (store_run_create(db, r, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    store_run_free(r);
    free(r);
    store_close(db);
    return -1;
  }
  int bad = 0;
  for (int it = 0; it < 12 && !bad; it++) {
    tuning_row t;
    memset(&t, 0, sizeof t);
    t.run_id = r->id;
    t.iteration = it;
    snprintf(t.kind, sizeof t.kind, "spsa");
    snprintf(t.weights, sizeof t.weights, "material %.3f mobility %.3f \"odd\" %.3f",
             1.0 + 0.02 * it, 0.5 - 0.01 * it, 0.1 * (it % 3));
    t.games = 8LL * (it + 1);
    bad = tuning_store_insert(db, &t, err, sizeof err);
  }
  if (!bad) {
    tuning_row t;
    memset(&t, 0, sizeof t);
    t.run_id = r->id;
    t.iteration = -1;
    snprintf(t.kind, sizeof t.kind, "validation");
    snprintf(t.weights, sizeof t.weights, "material 1.22 mobility 0.39 \"odd\" 0.2");
    t.value = 25, t.lo = 5, t.hi = 45;
    bad = tuning_store_insert(db, &t, err, sizeof err);
  }
  if (bad) fprintf(stderr, "cannot store the tuning iterations of run 3: %s\n", err);
  store_run_free(r);
  free(r);
  store_close(db);
  return bad ? -1 : 0;
}

static int group_teardown(void **state) {
  (void)state;
  if (getenv("OWARE_KEEP_TMP")) fprintf(stderr, "kept %s\n", tmpdir);
  else rm_rf(tmpdir);
  return 0;
}

static store *open_fixture(void) {
  store *db;
  char err[ERRLEN];
  if (store_open(dbpath, 0, &db, err, sizeof err)) fail_msg("%s", err);
  return db;
}

static void expect_contains(const char *text, const char *part) {
  if (!strstr(text, part)) fail_msg("'%.300s' does not contain '%s'", text, part);
}

/* ---- Tests ---- */

static void test_kind_parse(void **state) {
  (void)state;
  unsigned k;
  char err[256];
  assert_int_equal(plot_kind_parse("all", &k, err, sizeof err), 0);
  assert_int_equal(k, PLOT_ALL);
  assert_int_equal(plot_kind_parse("elo,ends", &k, err, sizeof err), 0);
  assert_int_equal(k, PLOT_ELO | PLOT_ENDS);
  assert_int_equal(plot_kind_parse("tuning", &k, err, sizeof err), 0);
  assert_int_equal(k, PLOT_TUNING);
  assert_int_equal(plot_kind_parse("elo,bogus", &k, err, sizeof err), -1);
  expect_contains(err, "unknown chart kind 'bogus'");
  assert_int_equal(plot_kind_parse("", &k, err, sizeof err), -1);
  for (int i = 0; i < PLOT_NKINDS; i++) {
    assert_int_equal(plot_kind_parse(plot_kind_name(1u << i), &k, err, sizeof err), 0);
    assert_int_equal(k, 1u << i);
  }
}

static void test_html_escape(void **state) {
  (void)state;
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  assert_non_null(f);
  report_html_escape(f, "<a href=\"x\">O'Neil & co</a>");
  fclose(f);
  assert_string_equal(buf, "&lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; co&lt;/a&gt;");
  free(buf);
}

static void test_run_summary(void **state) {
  (void)state;
  store *db = open_fixture();
  plot_run *r;
  char err[ERRLEN];
  assert_int_equal(plot_run_load(db, 1, &r, err, sizeof err), 0);
  long long games = store_games_count(db, 1);
  assert_int_equal(r->games, games);
  assert_int_equal(r->nplayers, 3);
  assert_int_equal(r->npairs, 3);
  long long sum = 0, ends = 0;
  double points = 0;
  for (int k = 0; k < r->npairs; k++) {
    const plot_pair *p = &r->pair[k];
    assert_int_equal(p->wins_a + p->draws + p->wins_b, p->games);
    sum += p->games;
    for (int e = 0; e < PLOT_NENDS; e++) ends += p->ends[e];
  }
  for (int i = 0; i < 3; i++) points += r->player[i].points;
  assert_int_equal(sum, games);
  assert_int_equal(ends, games);
  assert_true(fabs(points - (double)games) < 1e-9);
  /* standings order: by points */
  for (int k = 1; k < 3; k++)
    assert_true(r->player[r->order[k - 1]].points >= r->player[r->order[k]].points);
  /* the latest of the three stored fits covers every game: it is the Elo shown */
  assert_int_equal(r->nlatest, 3);
  assert_true(r->nhistory >= 9 && r->nhistory % 3 == 0);
  assert_true(r->has_elo);
  expect_contains(r->elo_source, "stored ratings");
  assert_true(fabs(r->player[1].elo - 250) < 1e-9); /* greedy */
  plot_run_free(r);

  /* run 2 has no stored ratings: the Elo comes from a fit of its games */
  assert_int_equal(plot_run_load(db, 2, &r, err, sizeof err), 0);
  assert_int_equal(r->nlatest, 0);
  assert_int_equal(r->run.nvariants, 2);
  assert_int_equal(r->variant_games[0] + r->variant_games[1], r->games);
  assert_true(r->has_elo);
  expect_contains(r->elo_source, "fit");
  double mean = 0;
  for (int i = 0; i < r->nplayers; i++) {
    assert_true(r->player[i].has_elo);
    assert_true(r->player[i].lo <= r->player[i].elo && r->player[i].elo <= r->player[i].hi);
    mean += r->player[i].elo / r->nplayers;
  }
  assert_true(fabs(mean) < 1.0);
  plot_run_free(r);

  assert_int_equal(plot_run_load(db, 99, &r, err, sizeof err), -1);
  expect_contains(err, "no run 99");
  assert_null(r);
  store_close(db);
}

static void test_charts_every_kind(void **state) {
  (void)state;
  store *db = open_fixture();
  char dir[256], err[ERRLEN];
  path_in_tmp(dir, sizeof dir, "charts/run-1");
  plot_result res;
  int rc = plot_charts(db, 1, PLOT_ALL, dir, NULL, &res, stderr, err, sizeof err);
  if (rc < 0) fail_msg("%s", err);
  assert_int_equal(res.gnuplot_missing, 0);
  assert_int_equal(res.n, PLOT_NKINDS);
  for (int k = 0; k < res.n; k++) {
    const plot_chart *c = &res.chart[k];
    if (c->kind == PLOT_TUNING) {
      /* a tournament has no tuning iterations: said, not drawn */
      assert_int_equal(c->status, PLOT_NO_DATA);
      expect_contains(c->note, "run 1 has no tuning iterations");
      continue;
    }
    if (c->status != PLOT_MADE) fail_msg("chart %s: %s", plot_kind_name(c->kind), c->note);
    check_chart(dir, plot_kind_name(c->kind), 800, 500);
  }
  assert_int_equal(res.made, PLOT_NKINDS - 1);
  assert_int_equal(rc, 0);

  /* run 2: two variants (length and ends per variant), a fitted Elo, no ratings over time */
  path_in_tmp(dir, sizeof dir, "charts/run-2");
  rc = plot_charts(db, 2, PLOT_ALL & ~(unsigned)PLOT_TUNING, dir, NULL, &res, stderr, err,
                   sizeof err);
  if (rc < 0) fail_msg("%s", err);
  for (int k = 0; k < res.n; k++) {
    const plot_chart *c = &res.chart[k];
    if (c->kind == PLOT_RATINGS) {
      assert_int_equal(c->status, PLOT_NO_DATA);
      expect_contains(c->note, "no stored ratings");
      continue;
    }
    if (c->status != PLOT_MADE) fail_msg("chart %s: %s", plot_kind_name(c->kind), c->note);
    check_chart(dir, plot_kind_name(c->kind), 800, 500);
  }
  char p[512];
  snprintf(p, sizeof p, "%s/length.dat", dir);
  char *dat = slurp(p, NULL);
  expect_contains(dat, "\"abapa\"");
  expect_contains(dat, "\"abapa,seeds=3\"");
  free(dat);

  store_close(db);
}

/* The tuning chart of a run from its stored iterations. */
static void test_tuning_chart(void **state) {
  (void)state;
  store *db = open_fixture();
  char dir[256], err[ERRLEN], p[512];
  char *dat;
  plot_result res;
  int rc;
  path_in_tmp(dir, sizeof dir, "charts/run-3");
  rc = plot_charts(db, 3, PLOT_TUNING, dir, NULL, &res, stderr, err, sizeof err);
  if (rc < 0) fail_msg("%s", err);
  assert_int_equal(res.n, 1);
  if (res.chart[0].status != PLOT_MADE) fail_msg("tuning: %s", res.chart[0].note);
  check_chart(dir, "tuning", 800, 500);
  snprintf(p, sizeof p, "%s/tuning.dat", dir);
  dat = slurp(p, NULL);
  expect_contains(dat, "\"iteration\" \"elo\" \"elo_lo\" \"elo_hi\" \"material\" \"mobility\"");
  expect_contains(dat, "\n11 25.000 5.000 45.000 "); /* the validation, at the last iteration */
  assert_null(strstr(dat, "\"\"odd\"\"")); /* no '"' inside a name */
  free(dat);
  store_close(db);
}

static void test_chart_size(void **state) {
  (void)state;
  store *db = open_fixture();
  char dir[256], err[ERRLEN];
  path_in_tmp(dir, sizeof dir, "charts/small");
  plot_options opt = {640, 400, NULL, NULL, NULL, 0};
  plot_result res;
  int rc = plot_charts(db, 1, PLOT_ELO | PLOT_MATRIX, dir, &opt, &res, NULL, err, sizeof err);
  if (rc) fail_msg("rc %d: %s / %s", rc, err, res.chart[0].note);
  check_chart(dir, "elo", 640, 400);
  check_chart(dir, "matrix", 640, 400);
  store_close(db);
}

/* The tuning data file as the tuner would write it, with and without checkpoints. */
static void test_tuning_file(void **state) {
  (void)state;
  char data[256], stem[256], err[ERRLEN];
  const char *names[4] = {"material", "mobility", "store_diff", "kroo \"big\""};
  double w[20][4];
  plot_tuning_iter it[20];
  for (int i = 0; i < 20; i++) {
    for (int k = 0; k < 4; k++) w[i][k] = (k + 1) * 0.5 + 0.03 * i * (k % 2 ? -1 : 1);
    it[i].iteration = 10 * i;
    it[i].weights = w[i];
    it[i].elo = it[i].elo_lo = it[i].elo_hi = NAN;
    if (i % 5 == 4) it[i].elo = 3.0 * i, it[i].elo_lo = 3.0 * i - 20, it[i].elo_hi = 3.0 * i + 20;
  }
  path_in_tmp(data, sizeof data, "tuning-file.dat");
  path_in_tmp(stem, sizeof stem, "tuning-file");
  assert_int_equal(plot_tuning_write(data, 9, names, 4, it, 20, err, sizeof err), 0);
  if (plot_render(PLOT_TUNING, data, stem, "tuning (file)", NULL, err, sizeof err))
    fail_msg("%s", err);
  char png[300], svg[300];
  snprintf(png, sizeof png, "%s.png", stem);
  snprintf(svg, sizeof svg, "%s.svg", stem);
  check_png(png, 800, 500);
  check_svg(svg, 800, 500);
  /* no checkpoint at all: one panel */
  for (int i = 0; i < 20; i++) it[i].elo = it[i].elo_lo = it[i].elo_hi = NAN;
  assert_int_equal(plot_tuning_write(data, 9, names, 4, it, 20, err, sizeof err), 0);
  if (plot_render(PLOT_TUNING, data, stem, "tuning (no checkpoint)", NULL, err, sizeof err))
    fail_msg("%s", err);
  check_svg(svg, 800, 500);
  char *dat = slurp(data, NULL);
  expect_contains(dat, "\"kroo 'big'\"");
  free(dat);
}

/* Every href and src of the page names a file of the folder (or an anchor
 * of the page); nothing is fetched from a network. */
static void check_links(const char *dir, const char *html, int *nimg) {
  *nimg = 0;
  const char *attrs[2] = {"href=\"", "src=\""};
  for (int a = 0; a < 2; a++)
    for (const char *p = strstr(html, attrs[a]); p; p = strstr(p + 1, attrs[a])) {
      const char *v = p + strlen(attrs[a]);
      size_t n = strcspn(v, "\"");
      char target[512];
      snprintf(target, sizeof target, "%.*s", (int)n, v);
      if (target[0] == '#') {
        char id[600];
        snprintf(id, sizeof id, "id=\"%s\"", target + 1);
        if (!strstr(html, id)) fail_msg("anchor %s has no target", target);
        continue;
      }
      if (strchr(target, ':') || strstr(target, "//") || target[0] == '/')
        fail_msg("the report refers outside its folder: %s", target);
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", dir, target);
      if (!file_exists(path)) fail_msg("the report links %s, which does not exist", target);
      if (a == 1) ++*nimg;
    }
  if (strstr(html, "http://") || strstr(html, "https://") || strstr(html, "@import") ||
      strstr(html, "url("))
    fail_msg("the report refers to something outside its folder");
}

static void test_report(void **state) {
  (void)state;
  store *db = open_fixture();
  char dir[256], err[ERRLEN], p[512];
  path_in_tmp(dir, sizeof dir, "report/run-1");
  if (report_write(db, 1, dir, stderr, err, sizeof err)) fail_msg("%s", err);
  store_close(db);
  snprintf(p, sizeof p, "%s/index.html", dir);
  char *html = slurp(p, NULL);
  int nimg;
  check_links(dir, html, &nimg);
  assert_int_equal(nimg, 6); /* every chart but tuning (time too: the games have move records) */
  /* the strings from the database are escaped */
  assert_null(strstr(html, "<script>alert")); /* the page's own scripts are the game viewer's */
  assert_null(strstr(html, "<b>R&D"));
  expect_contains(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;");
  expect_contains(html, "&lt;b&gt;R&amp;D&lt;/b&gt;");
  /* the contents */
  const char *sections[] = {"id=\"configuration\"", "id=\"standings\"", "id=\"ratings\"",
                            "id=\"pairings\"", "id=\"charts\"", "id=\"files\"",
                            "random;greedy;random:name=", "games:6", "random:2", ">7<",
                            "finished", "run-1.ogn", "<style>"};
  for (size_t k = 0; k < sizeof sections / sizeof *sections; k++)
    expect_contains(html, sections[k]);
  free(html);
  /* the OGN export holds every game */
  snprintf(p, sizeof p, "%s/run-1.ogn", dir);
  char *ogn = slurp(p, NULL);
  int records = 0;
  for (const char *q = strstr(ogn, "[Event "); q; q = strstr(q + 1, "[Event ")) records++;
  db = open_fixture();
  assert_int_equal(records, store_games_count(db, 1));
  store_close(db);
  free(ogn);
  /* report.md: the same sections, the same images, escaped */
  snprintf(p, sizeof p, "%s/report.md", dir);
  char *md = slurp(p, NULL);
  const char *md_parts[] = {"## Configuration", "## Standings", "## Ratings",
                            "## Match statistics per pairing", "## Charts", "## Files",
                            "](elo.png)", "](ratings.png)", "](matrix.png)", "](length.png)",
                            "](ends.png)", "](run-1.ogn)", "&lt;b&gt;R&amp;D&lt;/b&gt;"};
  for (size_t k = 0; k < sizeof md_parts / sizeof *md_parts; k++) expect_contains(md, md_parts[k]);
  assert_null(strstr(md, "<script"));
  free(md);
}

/* A run without games (a tuning run): the report has the tuning chart only. */
static void test_report_without_games(void **state) {
  (void)state;
  store *db = open_fixture();
  char dir[256], err[ERRLEN], p[512];
  path_in_tmp(dir, sizeof dir, "report/run-3");
  if (report_write(db, 3, dir, stderr, err, sizeof err)) fail_msg("%s", err);
  store_close(db);
  snprintf(p, sizeof p, "%s/index.html", dir);
  char *html = slurp(p, NULL);
  int nimg;
  check_links(dir, html, &nimg);
  assert_int_equal(nimg, 1);
  expect_contains(html, "<img src=\"tuning.png\"");
  expect_contains(html, "No games are stored for this run.");
  snprintf(p, sizeof p, "%s/elo.png", dir);
  assert_false(file_exists(p));
  snprintf(p, sizeof p, "%s/run-3.ogn", dir);
  assert_false(file_exists(p));
  free(html);
}

/* Without gnuplot: one message, data files, a report without images that says why. */
static void test_no_gnuplot(void **state) {
  (void)state;
  store *db = open_fixture();
  char dir[256], err[ERRLEN], p[512], logpath[256];
  path_in_tmp(dir, sizeof dir, "nognuplot");
  path_in_tmp(logpath, sizeof logpath, "nognuplot.log");
  plot_options opt = {0, 0, NULL, "gnuplot-is-not-here", NULL, 0};
  FILE *log = fopen(logpath, "w");
  assert_non_null(log);
  plot_result res;
  int rc = plot_charts(db, 1, PLOT_ALL, dir, &opt, &res, log, err, sizeof err);
  assert_int_equal(rc, 1);
  assert_int_equal(res.gnuplot_missing, 1);
  assert_int_equal(res.made, 0);
  for (int k = 0; k < res.n; k++)
    assert_int_equal(res.chart[k].status,
                     res.chart[k].kind == PLOT_TUNING ? PLOT_NO_DATA : PLOT_NO_GNUPLOT);
  snprintf(p, sizeof p, "%s/elo.dat", dir);
  assert_true(file_exists(p));
  snprintf(p, sizeof p, "%s/elo.png", dir);
  assert_false(file_exists(p));
  if (report_write_opt(db, 1, dir, &opt, log, err, sizeof err)) fail_msg("%s", err);
  fclose(log);
  char *text = slurp(logpath, NULL);
  int lines = 0;
  for (const char *q = strstr(text, "gnuplot is not installed"); q;
       q = strstr(q + 1, "gnuplot is not installed"))
    lines++;
  assert_int_equal(lines, 2); /* once for the charts, once for the report's */
  free(text);
  snprintf(p, sizeof p, "%s/index.html", dir);
  char *html = slurp(p, NULL);
  expect_contains(html, "gnuplot is not installed");
  assert_null(strstr(html, "<img"));
  int nimg;
  check_links(dir, html, &nimg);
  assert_int_equal(nimg, 0);
  free(html);
  store_close(db);
}

/* A script that fails: the chart is marked failed with gnuplot's status and stderr. */
static void test_gnuplot_fails(void **state) {
  (void)state;
  char sdir[256], p[512], dir[256], err[ERRLEN];
  path_in_tmp(sdir, sizeof sdir, "badscripts");
  assert_int_equal(mkdir(sdir, 0777), 0);
  snprintf(p, sizeof p, "%s/elo.gp", sdir);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs("set terminal nosuchterminal\nplot datafile\n", f);
  fclose(f);
  path_in_tmp(dir, sizeof dir, "badcharts");
  plot_options opt = {0, 0, sdir, NULL, NULL, 0};
  store *db = open_fixture();
  plot_result res;
  int rc = plot_charts(db, 1, PLOT_ELO | PLOT_MATRIX, dir, &opt, &res, NULL, err, sizeof err);
  assert_int_equal(rc, 1);
  assert_int_equal(res.chart[0].status, PLOT_FAILED);
  expect_contains(res.chart[0].note, "gnuplot exited with status");
  expect_contains(res.chart[0].note, "nosuchterminal");
  assert_int_equal(res.chart[1].status, PLOT_FAILED); /* no matrix.gp there */
  expect_contains(res.chart[1].note, "matrix.gp");
  store_close(db);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kind_parse),        cmocka_unit_test(test_html_escape),
      cmocka_unit_test(test_run_summary),       cmocka_unit_test(test_charts_every_kind),
      cmocka_unit_test(test_tuning_chart),      cmocka_unit_test(test_chart_size),
      cmocka_unit_test(test_tuning_file),
      cmocka_unit_test(test_report),            cmocka_unit_test(test_report_without_games),
      cmocka_unit_test(test_no_gnuplot),
      cmocka_unit_test(test_gnuplot_fails),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
