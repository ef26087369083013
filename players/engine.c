/* engine.c: the `engine` player: an external program that speaks the engine protocol over pipes. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "core/notation.h"
#include "players/engine.h"
#include "players/player.h"
#include "players/time_budget.h"

extern char **environ;

/*
 * How the client talks, and what it makes of the engine's failures.
 *
 * Start (at the first new_game, and at the next new_game after the engine
 * died or was killed): the program runs with its stdin and stdout on pipes
 * (close-on-exec on our ends), in a process group of its own, with SIGPIPE
 * at its default and no signal blocked; its stderr goes to /dev/null unless
 * stderr=inherit. Then: `uci` -> wait for `uciok` (id and option lines are
 * read: an option named Variant means the engine plays other rule sets);
 * `setoption name N value V` for each option=N=V of the spec.
 * new_game: `setoption name Variant value V` when the game's variant is not
 * the one the engine plays now (it fails when the variant is not abapa and
 * the engine has no Variant option), `ucinewgame`, `isready` -> `readyok`.
 * Every wait of the start and of new_game lasts at most timeout= ms; a
 * failure there makes new_game fail (the arena scores it a forfeit-error)
 * and the engine is killed, to be started again at the next new_game.
 * choose: `position startpos|fen POS [moves FdEe…]`, then `go` with the
 * move's limits (player_limits, when any is set, replace the spec's
 * depth=/nodes=/movetime=; with none at all, movetime 1000; a game clock
 * of the harness (tc=) without a per-move limit in the spec is sent as `go
 * wtime W btime B winc WI binc BI [movestogo N]`, South's time as wtime),
 * then lines are read until `bestmove X`:
 *   - X a legal move's letter                     -> PLAYER_OK
 *   - X a house letter that is not legal, or 0000 -> PLAYER_ILLEGAL
 *   - X missing or not a house letter             -> PLAYER_PROTOCOL
 *   - no bestmove by the deadline (movetime + margin=, the clock's time
 *     left + margin=, or timeout= for a depth/nodes search): `stop` is sent and the engine gets grace= ms to
 *     answer (else it is killed); the move is PLAYER_PROTOCOL when the
 *     engine sent lines that are not protocol (garbage), else
 *     PLAYER_TIMEOUT. Garbage alone is not an error: a bestmove in time
 *     after it is played.
 *   - the engine closes its output or exits         -> PLAYER_CRASH
 *   - the engine is not running (died earlier)      -> PLAYER_CRASH
 * `info` lines are passed to on_info (depth, seldepth, score, nodes, time,
 * pv; `score mate N` becomes PLAYER_WIN - (2N - 1), `mate -N` -PLAYER_WIN +
 * 2N). Lines longer than LINE_CAP are cut. Writes never raise SIGPIPE (it is
 * blocked in the writing thread and a pending one is taken back), so the
 * process's signal handling is not changed.
 * destroy: `quit`, our end of its stdin closed, grace= ms for the engine to
 * exit, then SIGKILL to its process group; the engine is always reaped.
 */

#define LINE_CAP 4096      /* longest line read; the rest of a longer line is dropped */
#define QUOTE 100          /* characters of an engine's line quoted in a message */
#define DEFAULT_MOVETIME 1000
#define SLICE_MS 50        /* how often a wait looks at player->stop */

typedef struct eng {
  /* From the spec. */
  char **argv;             /* cmd then each arg=, NULL-terminated; owned */
  int argc;
  char *options;           /* option= values joined by '\n'; owned, may be NULL */
  int movetime, depth;
  long long nodes;
  int timeout, margin, grace;
  int inherit_stderr;
  /* The running engine (pid 0: not running). */
  pid_t pid;
  int to_fd, from_fd;      /* our ends: its stdin, its stdout; -1 when closed */
  char buf[LINE_CAP];      /* bytes read and not yet returned as lines */
  size_t len;
  int dropping;            /* in the cut-off part of a long line */
  int eof;
  /* What the engine told us. */
  char label[96];          /* its id name, else the command line: for messages */
  int has_variant;         /* it offers a Variant option */
  char variant_now[256];   /* the variant it plays now ("" = unknown) */
} eng;


static long long now_ms(void) { return (long long)(clock_now() * 1000.0); }

static void sleep_ms(int ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) && errno == EINTR) {
  }
}

/* ---- The process. ---- */

/* write() that cannot kill us with SIGPIPE: the signal is blocked in this
 * thread for the call, and one raised by it is taken back. */
static ssize_t write_nosig(int fd, const void *buf, size_t n) {
  sigset_t pipe_set, old;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  ssize_t r = write(fd, buf, n);
  int saved = errno;
  if (r < 0 && saved == EPIPE && !sigismember(&old, SIGPIPE)) {
    struct timespec zero = {0, 0};
    while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = saved;
  return r;
}

/* Moves fd above 2 (so that the child's dup2 onto 0 and 1 cannot clobber
 * it), keeping close-on-exec. Returns the fd, or -1. */
static int high_fd(int fd) {
  if (fd > 2) return fd;
  int h = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  close(fd);
  return h;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

/* Describes a wait status (without strsignal, which need not be thread-safe). */
static void describe_status(int status, char *buf, size_t len) {
  static const struct {
    int sig;
    const char *name;
  } names[] = {{SIGKILL, "SIGKILL"}, {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"},
               {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},   {SIGPIPE, "SIGPIPE"},
               {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"}};
  if (WIFEXITED(status)) {
    snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    const char *name = "";
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
      if (names[i].sig == WTERMSIG(status)) name = names[i].name;
    snprintf(buf, len, "was killed by signal %d%s%s%s", WTERMSIG(status), *name ? " (" : "", name,
             *name ? ")" : "");
  } else {
    snprintf(buf, len, "ended");
  }
}

/* Ends the engine: closes its stdin, gives it wait_ms to exit by itself,
 * then kills its process group (the engine if it still runs, and whatever
 * it started) and reaps it. How it ended goes to how (may be NULL). */
static void reap(eng *e, int wait_ms, char *how, size_t howlen) {
  if (how && howlen) how[0] = '\0';
  close_fd(&e->to_fd);
  if (e->pid > 0) {
    long long end = now_ms() + wait_ms;
    int exited = 0;
    for (;;) {
      siginfo_t si;
      memset(&si, 0, sizeof si);
      /* WNOWAIT: the pid stays ours (and the group's id valid) until reaped. */
      int r = waitid(P_PID, (id_t)e->pid, &si, WEXITED | WNOHANG | WNOWAIT);
      if (r == 0 && si.si_pid == e->pid) {
        exited = 1;
        break;
      }
      if (r < 0 && errno == ECHILD) {
        /* Reaped behind our back (SIGCHLD ignored): the pid is no longer ours to kill. */
        if (how) snprintf(how, howlen, "ended");
        goto closed;
      }
      if (now_ms() >= end) break;
      sleep_ms(2);
    }
    kill(-e->pid, SIGKILL);
    int status = 0, r;
    while ((r = waitpid(e->pid, &status, 0)) < 0 && errno == EINTR) {
    }
    if (how) {
      if (r < 0) snprintf(how, howlen, "ended");
      else if (!exited) snprintf(how, howlen, "did not exit within %d ms and was killed", wait_ms);
      else describe_status(status, how, howlen);
    }
  }
closed:
  close_fd(&e->from_fd);
  e->pid = 0;
  e->len = 0;
  e->dropping = e->eof = 0;
}

static void set_label(eng *e, const char *text) {
  snprintf(e->label, sizeof e->label, "'%.*s'", (int)(sizeof e->label - 3), text);
}

/* Whether the first word of line is w. */
static int starts_word(const char *line, const char *w) {
  size_t n = strlen(w);
  return !strncmp(line, w, n) && (line[n] == '\0' || line[n] == ' ' || line[n] == '\t');
}

/* Whether a line is something the protocol allows an engine to say. */
static int is_protocol(const char *line) {
  static const char *const words[] = {"info", "bestmove", "id",       "option",        "uciok",
                                      "readyok", "copyprotection", "registration", NULL};
  while (*line == ' ' || *line == '\t') line++;
  if (!*line) return 1; /* blank lines are harmless */
  for (int i = 0; words[i]; i++)
    if (starts_word(line, words[i])) return 1;
  return 0;
}

static int parse_info(const variant *v, const char *line, player_info *out);

engine_says engine_read_line(const variant *v, char *line, size_t len, engine_line *out) {
  memset(out, 0, sizeof *out);
  for (size_t k = 0; k < len; k++)
    if (!line[k]) line[k] = '?';
  line[len] = '\0';
  if (len && line[len - 1] == '\r') line[--len] = '\0';
  char *l = line;
  while (*l == ' ' || *l == '\t') l++;
  out->word = l;
  out->move = ENGINE_MOVE_BAD;
  if (!*l) return out->kind = ENGINE_SAYS_BLANK;
  if (starts_word(l, "bestmove")) {
    char mv[16] = "";
    const char *a = l + 8;
    while (*a == ' ' || *a == '\t') a++;
    size_t n = strcspn(a, " \t");
    if (n < sizeof mv) {
      memcpy(mv, a, n);
      mv[n] = '\0';
    }
    if (n == 1 && notation_move_index(v, mv[0]) >= 0) out->move = notation_move_index(v, mv[0]);
    else if (!strcmp(mv, "0000")) out->move = ENGINE_MOVE_NONE;
    return out->kind = ENGINE_SAYS_BESTMOVE;
  }
  if (starts_word(l, "info")) {
    out->info_any = parse_info(v, l, &out->info);
    return out->kind = ENGINE_SAYS_INFO;
  }
  if (starts_word(l, "id") && !strncmp(l + 2, " name ", 6)) {
    const char *nm = l + 8;
    while (*nm == ' ' || *nm == '\t') nm++;
    size_t k = 0;
    for (; nm[k] && k + 1 < sizeof out->text; k++)
      out->text[k] = (unsigned char)nm[k] < 32 || nm[k] == 127 ? '?' : nm[k];
    out->text[k] = '\0';
    return out->kind = ENGINE_SAYS_ID_NAME;
  }
  if (starts_word(l, "option") && !strncmp(l + 6, " name ", 6)) {
    const char *nm = l + 12, *ty = strstr(nm, " type ");
    if (ty && ty - nm == 7 && !strncasecmp(nm, "Variant", 7)) {
      const char *d = strstr(ty, " default ");
      variant w;
      if (d && !variant_parse(d + 9, &w, NULL, 0)) /* an unknown default is not shown */
        variant_format(&w, out->text, sizeof out->text);
      return out->kind = ENGINE_SAYS_VARIANT;
    }
  }
  return out->kind = is_protocol(l) ? ENGINE_SAYS_PROTOCOL : ENGINE_SAYS_GARBAGE;
}

/* Starts the program. Returns 0, or -1 with err. */
static int start(eng *e, char *err, size_t errlen) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC)) {
    error_set(err, errlen, "engine %s: cannot create a pipe: %s", e->label, strerror(errno));
    return -1;
  }
  if (pipe2(out, O_CLOEXEC)) {
    error_set(err, errlen, "engine %s: cannot create a pipe: %s", e->label, strerror(errno));
    close(in[0]);
    close(in[1]);
    return -1;
  }
  in[0] = high_fd(in[0]);
  out[1] = high_fd(out[1]);
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  int rc = -1, fa_ok = 0, at_ok = 0;
  pid_t pid = 0;
  if (in[0] < 0 || out[1] < 0) {
    error_set(err, errlen, "engine %s: cannot set up its pipes: %s", e->label, strerror(errno));
    goto done;
  }
  if ((rc = posix_spawn_file_actions_init(&fa))) goto spawn_err;
  fa_ok = 1;
  if ((rc = posix_spawnattr_init(&at))) goto spawn_err;
  at_ok = 1;
  sigset_t none, dflt;
  sigemptyset(&none);
  sigemptyset(&dflt);
  sigaddset(&dflt, SIGPIPE);
  if ((rc = posix_spawn_file_actions_adddup2(&fa, in[0], 0)) ||
      (rc = posix_spawn_file_actions_adddup2(&fa, out[1], 1)) ||
      (!e->inherit_stderr &&
       (rc = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0))) ||
      (rc = posix_spawnattr_setsigmask(&at, &none)) ||
      (rc = posix_spawnattr_setsigdefault(&at, &dflt)) ||
      (rc = posix_spawnattr_setpgroup(&at, 0)) ||
      (rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                              POSIX_SPAWN_SETPGROUP)))
    goto spawn_err;
  rc = posix_spawnp(&pid, e->argv[0], &fa, &at, e->argv, environ);
  if (rc) {
    error_set(err, errlen, "engine: cannot start '%s': %s", e->argv[0], strerror(rc));
    rc = -1;
    goto done;
  }
  e->pid = pid;
  e->to_fd = in[1];
  e->from_fd = out[0];
  in[1] = out[0] = -1;
  /* Our ends never block: every wait is a poll() with a deadline. */
  fcntl(e->to_fd, F_SETFL, fcntl(e->to_fd, F_GETFL) | O_NONBLOCK);
  fcntl(e->from_fd, F_SETFL, fcntl(e->from_fd, F_GETFL) | O_NONBLOCK);
  e->len = 0;
  e->dropping = e->eof = 0;
  rc = 0;
  goto done;
spawn_err:
  error_set(err, errlen, "engine %s: cannot prepare the process: %s", e->label, strerror(rc));
  rc = -1;
done:
  if (fa_ok) posix_spawn_file_actions_destroy(&fa);
  if (at_ok) posix_spawnattr_destroy(&at);
  for (int k = 0; k < 2; k++) {
    if (in[k] >= 0) close(in[k]);
    if (out[k] >= 0) close(out[k]);
  }
  return rc;
}

/* Sends one line. Returns 0; -1 when the engine has closed its input
 * (EPIPE); -2 when it did not take the line within timeout ms. */
static int send_line(eng *e, const char *line) {
  size_t n = strlen(line);
  char small[512], *buf = n + 1 <= sizeof small ? small : malloc(n + 1);
  if (!buf) return -1;
  memcpy(buf, line, n);
  buf[n++] = '\n';
  long long deadline = now_ms() + e->timeout;
  size_t done = 0;
  int rc = 0;
  while (done < n) {
    if (e->to_fd < 0) {
      rc = -1;
      break;
    }
    ssize_t w = write_nosig(e->to_fd, buf + done, n - done);
    if (w > 0) {
      done += (size_t)w;
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
      rc = -1;
      break;
    }
    long long left = deadline - now_ms();
    if (left <= 0) {
      rc = -2;
      break;
    }
    struct pollfd pf = {e->to_fd, POLLOUT, 0};
    if (poll(&pf, 1, (int)left) < 0 && errno != EINTR) {
      rc = -1;
      break;
    }
  }
  if (buf != small) free(buf);
  return rc;
}

/* The next line from the engine (without its end, cut at LINE_CAP - 1).
 * Returns 1 with a line; 0 once deadline (ms, now_ms's clock) has passed,
 * even while lines keep coming (a flood cannot hold us); -1 at the end of
 * its output (or a read error). */
static int read_line(eng *e, long long deadline, char line[LINE_CAP]) {
  for (;;) {
    if (now_ms() >= deadline) return 0;
    char *nl = memchr(e->buf, '\n', e->len);
    if (nl || e->len == LINE_CAP - 1 || (e->eof && e->len)) {
      size_t l = nl ? (size_t)(nl - e->buf) : e->len;
      size_t used = nl ? l + 1 : l;
      int was_dropping = e->dropping;
      if (!was_dropping) {
        /* A NUL byte would end the line early in C: read it as '?'. */
        for (size_t k = 0; k < l; k++) line[k] = e->buf[k] ? e->buf[k] : '?';
        line[l] = '\0';
        if (l && line[l - 1] == '\r') line[l - 1] = '\0';
      }
      /* A line without its end here was cut: drop the rest of it. */
      e->dropping = !nl && !e->eof;
      memmove(e->buf, e->buf + used, e->len - used);
      e->len -= used;
      if (!was_dropping) return 1;
      continue;
    }
    if (e->eof || e->from_fd < 0) return -1;
    long long left = deadline - now_ms();
    if (left <= 0) return 0;
    struct pollfd pf = {e->from_fd, POLLIN, 0};
    int r = poll(&pf, 1, (int)(left > 1000000 ? 1000000 : left));
    if (r < 0 && errno != EINTR) return -1;
    if (r <= 0) continue;
    ssize_t n = read(e->from_fd, e->buf + e->len, LINE_CAP - 1 - e->len);
    if (n > 0) e->len += (size_t)n;
    else if (n == 0) e->eof = 1;
    else if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) e->eof = 1;
  }
}

/* A line quoted for a message. */
static void quote(const char *line, char *buf, size_t len) {
  if (!line || !*line) {
    snprintf(buf, len, "nothing");
    return;
  }
  size_t l = strlen(line);
  snprintf(buf, len, "'%.*s%s'", QUOTE, line, l > QUOTE ? "…" : "");
}

/* Waits for a line equal to `want` (its first word), ignoring others.
 * Returns 0; -1 with err (the engine is then killed and reaped). */
static int expect(eng *e, const char *sent, const char *want, char *err, size_t errlen) {
  char line[LINE_CAP], last[LINE_CAP] = "", how[128], q[QUOTE + 16];
  long long deadline = now_ms() + e->timeout;
  for (;;) {
    int r = read_line(e, deadline, line);
    if (r == 1) {
      engine_line el;
      variant dv;
      variant_default(&dv);
      engine_read_line(&dv, line, strlen(line), &el);
      const char *l = el.word;
      if (starts_word(l, want)) return 0;
      if (*l) snprintf(last, sizeof last, "%s", l);
      if (!strcmp(want, "uciok")) {
        /* id name X; option name N type T [default D] … */
        if (el.kind == ENGINE_SAYS_ID_NAME && el.text[0]) set_label(e, el.text);
        if (el.kind == ENGINE_SAYS_VARIANT) {
          e->has_variant = 1;
          snprintf(e->variant_now, sizeof e->variant_now, "%s", el.text);
        }
      }
      continue;
    }
    quote(last, q, sizeof q);
    if (r == 0) {
      reap(e, 0, NULL, 0);
      error_set(err, errlen, "engine %s did not answer '%s' with '%s' within %d ms (last line: %s); killed",
          e->label, sent, want, e->timeout, q);
    } else {
      reap(e, e->grace, how, sizeof how);
      error_set(err, errlen, "engine %s %s before answering '%s' with '%s' (last line: %s)", e->label, how, sent,
          want, q);
    }
    return -1;
  }
}

/* Sends a line during the start or new_game; -1 with err when it fails. */
static int send_or_fail(eng *e, const char *line, char *err, size_t errlen) {
  int r = send_line(e, line);
  if (!r) return 0;
  char how[128];
  reap(e, r == -1 ? e->grace : 0, how, sizeof how);
  if (r == -1) error_set(err, errlen, "engine %s closed its input (it %s) when sent '%s'", e->label, how, line);
  else error_set(err, errlen, "engine %s does not read its input (sending '%s'); killed", e->label, line);
  return -1;
}

/* Starts the engine and does the uci handshake with the spec's options. */
static int start_engine(player *p, char *err, size_t errlen) {
  eng *e = p->data;
  char cmdline[LINE_CAP] = "";
  size_t n = 0;
  for (int i = 0; i < e->argc && n < sizeof cmdline; i++)
    n += (size_t)snprintf(cmdline + n, sizeof cmdline - n, "%s%s", i ? " " : "", e->argv[i]);
  set_label(e, cmdline);
  e->has_variant = 0;
  snprintf(e->variant_now, sizeof e->variant_now, "abapa");
  if (start(e, err, errlen)) return -1;
  if (send_or_fail(e, "uci", err, errlen) || expect(e, "uci", "uciok", err, errlen)) return -1;
  for (const char *o = e->options; o && *o;) {
    size_t l = strcspn(o, "\n");
    const char *eq = memchr(o, '=', l);
    char line[2200];
    if (!eq || eq == o) {
      error_set(err, errlen, "engine %s: option='%.*s' is not Name=Value", e->label, (int)l, o);
      reap(e, 0, NULL, 0);
      return -1;
    }
    snprintf(line, sizeof line, "setoption name %.*s value %.*s", (int)(eq - o), o,
             (int)(l - (size_t)(eq - o) - 1), eq + 1);
    if (eq - o == 7 && !strncasecmp(o, "Variant", 7)) e->variant_now[0] = '\0';
    if (send_or_fail(e, line, err, errlen)) return -1;
    o += l + (o[l] == '\n');
  }
  return 0;
}

/* Whether the engine still runs and its output is open (it may have died
 * between two games without our noticing). */
static int alive(eng *e) {
  if (!e->pid || e->eof) return 0;
  siginfo_t si;
  memset(&si, 0, sizeof si);
  if (waitid(P_PID, (id_t)e->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == e->pid)
    return 0;
  struct pollfd pf = {e->from_fd, POLLIN, 0};
  return !(poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR | POLLNVAL)));
}

/* ---- The hooks. ---- */

/* Starts the engine when it is not running (the first game, or after it
 * died or was killed), sets the variant, ucinewgame, isready. */
static int new_game(player *p, const variant *v, char *err, size_t errlen) {
  eng *e = p->data;
  if (e->pid && !alive(e)) reap(e, 0, NULL, 0); /* died since the last move: restart */
  if (!e->pid && start_engine(p, err, errlen)) return -1;
  char vt[256];
  variant_format(v, vt, sizeof vt);
  if (strcmp(vt, e->variant_now)) {
    if (!e->has_variant) {
      error_set(err, errlen, "engine %s has no Variant option, so it plays abapa only; this game's variant is %s",
          e->label, vt);
      return -1;
    }
    char line[320];
    snprintf(line, sizeof line, "setoption name Variant value %s", vt);
    if (send_or_fail(e, line, err, errlen)) return -1;
    snprintf(e->variant_now, sizeof e->variant_now, "%s", vt);
  }
  if (send_or_fail(e, "ucinewgame", err, errlen) || send_or_fail(e, "isready", err, errlen) ||
      expect(e, "isready", "readyok", err, errlen))
    return -1;
  return 0;
}

/* A whole number after a key of an info line. */
static int info_number(char **save, long long *out) {
  char *w = strtok_r(NULL, " \t", save), *end;
  if (!w) return -1;
  errno = 0;
  long long x = strtoll(w, &end, 10);
  if (errno || *end || x < -(1LL << 50) || x > (1LL << 50)) return -1;
  *out = x;
  return 0;
}

static int clamp_int(long long x) { return x > 1000000 ? 1000000 : x < 0 ? 0 : (int)x; }

/* Reads an info line into *out; returns 1 when it says something (a depth,
 * score, node count or pv), 0 for `info string` and unreadable ones. */
static int parse_info(const variant *v, const char *line, player_info *out) {
  char copy[LINE_CAP], *save = NULL;
  snprintf(copy, sizeof copy, "%s", line);
  memset(out, 0, sizeof *out);
  int any = 0;
  long long x;
  char *w = strtok_r(copy, " \t", &save); /* "info" */
  while ((w = strtok_r(NULL, " \t", &save))) {
    if (!strcmp(w, "string")) break;
    if (!strcmp(w, "depth") && !info_number(&save, &x)) out->depth = clamp_int(x), any = 1;
    else if (!strcmp(w, "seldepth") && !info_number(&save, &x)) out->seldepth = clamp_int(x);
    else if (!strcmp(w, "nodes") && !info_number(&save, &x)) out->nodes = x, any = 1;
    else if (!strcmp(w, "time") && !info_number(&save, &x)) out->seconds = (double)x / 1000.0;
    else if (!strcmp(w, "score")) {
      char *kind = strtok_r(NULL, " \t", &save);
      if (kind && !strcmp(kind, "cp") && !info_number(&save, &x)) {
        if (x > PLAYER_WIN - 1001) x = PLAYER_WIN - 1001;
        if (x < -PLAYER_WIN + 1001) x = -PLAYER_WIN + 1001;
        out->score = (int)x, out->scored = 1, any = 1;
      } else if (kind && !strcmp(kind, "mate") && !info_number(&save, &x)) {
        if (x > 400) x = 400;
        if (x < -400) x = -400;
        out->score = x > 0 ? PLAYER_WIN - (int)(2 * x - 1) : -PLAYER_WIN + (int)(-2 * x);
        out->scored = any = 1;
      }
    } else if (!strcmp(w, "pv")) {
      /* Letters, together or apart, up to the first word that is not. */
      while ((w = strtok_r(NULL, " \t", &save))) {
        int ok = 1;
        for (const char *c = w; *c; c++) ok &= notation_move_index(v, *c) >= 0;
        if (!ok) break;
        for (const char *c = w; *c && out->pvlen < PLAYER_PV_MAX; c++)
          out->pv[out->pvlen++] = notation_move_index(v, *c);
      }
      any |= out->pvlen > 0;
      break;
    }
  }
  return any;
}

/* The `position` line of g into a malloc'ed string, or NULL. */
static char *position_line(const game *g) {
  board s;
  board_start(&s, &g->v);
  int same = s.side == g->start.side && s.store[0] == g->start.store[0] &&
             s.store[1] == g->start.store[1] && !memcmp(s.pit, g->start.pit, (size_t)g->v.pits);
  size_t len = 64 + NOTATION_POSITION_MAX + (size_t)g->plies;
  char *buf = malloc(len);
  if (!buf) return NULL;
  size_t n;
  if (same) {
    n = (size_t)snprintf(buf, len, "position startpos");
  } else {
    char pos[NOTATION_POSITION_MAX];
    notation_format_position(&g->start, &g->v, NULL, pos, sizeof pos);
    n = (size_t)snprintf(buf, len, "position fen %s", pos);
  }
  if (g->plies > 0) {
    n += (size_t)snprintf(buf + n, len - n, " moves ");
    for (int i = 0; i < g->plies && n + 1 < len; i++)
      buf[n++] = notation_move_letter(&g->v, g->moves[i]);
    buf[n] = '\0';
  }
  return buf;
}

/* Sends during choose; maps a failure to a status with err. */
static player_status send_move_line(eng *e, const char *line, char *err, size_t errlen) {
  int r = send_line(e, line);
  if (!r) return PLAYER_OK;
  char how[128];
  reap(e, r == -1 ? e->grace : 0, how, sizeof how);
  if (r == -1) {
    error_set(err, errlen, "engine %s closed its input (it %s)", e->label, how);
    return PLAYER_CRASH;
  }
  error_set(err, errlen, "engine %s does not read its input; killed", e->label);
  return PLAYER_TIMEOUT;
}

/* The limits of one move: the move's when any is set, else the spec's; a
 * default movetime when neither sets one. */
typedef struct go_limits {
  int depth, movetime, infinite;
  long long nodes;
  const player_limits *clock; /* a clock of the harness, sent as wtime/btime (NULL: none) */
  int side;                   /* the mover's side, for wtime (South) and btime */
} go_limits;

static go_limits move_limits(const eng *e, const game *g, const player_limits *lim) {
  go_limits l = {e->depth, e->movetime, 0, e->nodes, NULL, g->pos.side};
  if (time_budget_applies(lim) && !e->movetime && !e->depth && !e->nodes) {
    l.clock = lim;
    return l;
  }
  if (lim && (lim->depth || lim->nodes || lim->playouts || lim->movetime_ms || lim->infinite)) {
    l.depth = lim->depth;
    l.nodes = lim->nodes ? lim->nodes : lim->playouts;
    l.movetime = lim->movetime_ms;
    l.infinite = lim->infinite;
  }
  if (!l.depth && !l.nodes && !l.movetime && !l.infinite) l.movetime = DEFAULT_MOVETIME;
  return l;
}

/* The go line of a clock: wtime is South's, btime North's (ms, at least 0). */
static void clock_go(const go_limits *l, char *go, size_t len) {
  const player_limits *c = l->clock;
  long long t[2], inc[2];
  t[l->side] = c->time_ms > 0 ? c->time_ms : 0;
  t[1 - l->side] = c->opp_time_ms > 0 ? c->opp_time_ms : 0;
  inc[l->side] = c->inc_ms;
  inc[1 - l->side] = c->opp_inc_ms;
  size_t n = (size_t)snprintf(go, len, "go wtime %lld btime %lld winc %lld binc %lld", t[0], t[1],
                              inc[0], inc[1]);
  if (c->movestogo > 0 && n < len) snprintf(go + n, len - n, " movestogo %d", c->movestogo);
}

/* Sends the position of g, then the `go` line of l. */
static player_status send_search(eng *e, const game *g, const go_limits *l, char *err, size_t errlen) {
  char go[160];
  if (l->clock) clock_go(l, go, sizeof go);
  else if (l->infinite) snprintf(go, sizeof go, "go infinite");
  else {
    size_t n = (size_t)snprintf(go, sizeof go, "go");
    if (l->depth) n += (size_t)snprintf(go + n, sizeof go - n, " depth %d", l->depth);
    if (l->nodes) n += (size_t)snprintf(go + n, sizeof go - n, " nodes %lld", l->nodes);
    if (l->movetime) snprintf(go + n, sizeof go - n, " movetime %d", l->movetime);
  }
  char *pos = position_line(g);
  if (!pos) {
    error_set(err, errlen, "engine %s: out of memory", e->label);
    return PLAYER_ERROR;
  }
  player_status st = send_move_line(e, pos, err, errlen);
  free(pos);
  if (st == PLAYER_OK) st = send_move_line(e, go, err, errlen);
  return st;
}

/* The move of a bestmove line, if it is legal in g. */
static player_status take_bestmove(const eng *e, const game *g, const engine_line *el, int *move,
                                   char *err, size_t errlen) {
  char q[QUOTE + 16], legal[64];
  quote(el->word, q, sizeof q);
  int m = el->move;
  notation_format_legal(&g->v, g->legal, legal, sizeof legal);
  if (m >= 0 && (g->legal >> m & 1)) {
    *move = m;
    return PLAYER_OK;
  }
  if (m >= 0 || m == ENGINE_MOVE_NONE) {
    error_set(err, errlen, "engine %s played an illegal move: %s (legal: %s)", e->label, q, legal);
    return PLAYER_ILLEGAL;
  }
  error_set(err, errlen, "engine %s sent a bestmove without a house letter: %s (legal: %s)", e->label, q, legal);
  return PLAYER_PROTOCOL;
}

/* The wait for a bestmove: its deadline and what it has seen. */
typedef struct waiting {
  long long t0, limit_ms, deadline; /* deadline -1: none */
  int stop_sent, garbage;
  char first_garbage[LINE_CAP], last[LINE_CAP];
} waiting;

/* Reads the engine's lines until its bestmove or the deadline. Returns 1
 * with *st when the move is settled (a move, or the error that ends it), 0
 * when the time ran out. */
static int wait_bestmove(player *p, const game *g, waiting *w, int *move, player_info *info,
                         player_status *st, char *err, size_t errlen) {
  eng *e = p->data;
  char line[LINE_CAP];
  for (;;) {
    long long t = now_ms();
    if (!w->stop_sent && player_stopped(p)) {
      /* Asked to end the search early: the engine answers stop in time. */
      if ((*st = send_move_line(e, "stop", err, errlen)) != PLAYER_OK) return 1;
      w->stop_sent = 1;
      w->deadline = t + e->timeout;
      w->limit_ms = t + e->timeout - w->t0;
    }
    if (w->deadline >= 0 && t >= w->deadline) return 0;
    long long slice = t + SLICE_MS;
    if (w->deadline >= 0 && w->deadline < slice) slice = w->deadline;
    int r = read_line(e, slice, line);
    if (r == 0) continue;
    if (r < 0) {
      char q[QUOTE + 16], how[128];
      quote(w->last, q, sizeof q);
      reap(e, e->grace, how, sizeof how);
      error_set(err, errlen, "engine %s %s while thinking (last line: %s)", e->label, how, q);
      *st = PLAYER_CRASH;
      return 1;
    }
    engine_line el;
    engine_read_line(&g->v, line, strlen(line), &el);
    const char *l = el.word;
    if (*l) snprintf(w->last, sizeof w->last, "%s", l);
    if (el.kind == ENGINE_SAYS_BESTMOVE) {
      *st = take_bestmove(e, g, &el, move, err, errlen);
      return 1;
    }
    if (el.kind == ENGINE_SAYS_INFO && el.info_any) {
      player_info it = el.info;
      if (info) *info = it;
      if (p->on_info) p->on_info(p->info_ctx, &it);
    }
    if (el.kind == ENGINE_SAYS_GARBAGE) {
      if (!w->garbage) snprintf(w->first_garbage, sizeof w->first_garbage, "%s", l);
      if (w->garbage < 1000000000) w->garbage++;
    }
  }
}

/* No bestmove in time: stop, and a little grace to answer it. */
static player_status no_bestmove(eng *e, const waiting *w, char *err, size_t errlen) {
  char line[LINE_CAP];
  int answered = 0;
  if (send_line(e, "stop") == 0) {
    long long until = now_ms() + e->grace;
    int r;
    while ((r = read_line(e, until, line)) == 1)
      if (starts_word(line, "bestmove")) {
        answered = 1;
        break;
      }
  }
  if (!answered) reap(e, 0, NULL, 0);
  const char *tail = answered ? "" : "; it did not answer 'stop' either and was killed";
  if (w->garbage) {
    char q[QUOTE + 16];
    quote(w->first_garbage, q, sizeof q);
    error_set(err, errlen, "engine %s sent no bestmove within %lld ms, only %d line%s outside the protocol, the "
        "first: %s%s",
        e->label, w->limit_ms, w->garbage, w->garbage > 1 ? "s" : "", q, tail);
    return PLAYER_PROTOCOL;
  }
  error_set(err, errlen, "engine %s sent no bestmove within %lld ms%s", e->label, w->limit_ms, tail);
  return PLAYER_TIMEOUT;
}

static player_status choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen) {
  eng *e = p->data;
  if (!e->pid) {
    error_set(err, errlen, "engine %s is not running (it died or was killed earlier; it restarts at the next game)",
        e->label);
    return PLAYER_CRASH;
  }
  go_limits l = move_limits(e, g, lim);
  player_status st = send_search(e, g, &l, err, errlen);
  if (st != PLAYER_OK) return st;
  waiting w = {.t0 = now_ms()};
  if (l.clock) /* the harness forfeits it on time; the wait only must end */
    w.limit_ms = (l.clock->time_ms > 0 ? l.clock->time_ms : 0) + e->margin;
  else
    w.limit_ms = l.infinite ? -1 : l.movetime ? (long long)l.movetime + e->margin : e->timeout;
  w.deadline = w.limit_ms < 0 ? -1 : w.t0 + w.limit_ms;
  if (!wait_bestmove(p, g, &w, move, info, &st, err, errlen)) st = no_bestmove(e, &w, err, errlen);
  return st;
}

/* Ends the engine (quit, grace, SIGKILL, reap) and frees everything of p->data. */
static void destroy(player *p) {
  eng *e = p->data;
  if (!e) return;
  if (e->pid) {
    send_line(e, "quit");
    reap(e, e->grace, NULL, 0);
  }
  for (int i = 0; i < e->argc; i++) free(e->argv[i]);
  free(e->argv);
  free(e->options);
  free(e);
  p->data = NULL;
}

/* Reads the spec into p->data (owned by p, freed by destroy); the engine
 * starts at the first new_game, which player_create makes. */
static int create(player *p, char *err, size_t errlen) {
  const player_config *c = &p->config;
  const char *cmd = player_config_text(c, "cmd");
  if (!cmd) {
    error_set(err, errlen, "engine: cmd=PROGRAM is missing (e.g. engine:cmd=./aalina,movetime=1000)");
    return -1;
  }
  static const player_hooks hooks = {new_game, choose, destroy, NULL, NULL};
  eng *e = player_setup(p, &hooks, sizeof *e, err, errlen);
  if (!e) return -1;
  e->to_fd = e->from_fd = -1;
  e->movetime = (int)player_config_int(c, "movetime");
  e->depth = (int)player_config_int(c, "depth");
  e->nodes = player_config_int(c, "nodes");
  e->timeout = (int)player_config_int(c, "timeout");
  e->margin = (int)player_config_int(c, "margin");
  e->grace = (int)player_config_int(c, "grace");
  const char *se = player_config_text(c, "stderr");
  e->inherit_stderr = se && !strcmp(se, "inherit");
  int nargs = 0;
  char arg[1100];
  while (!player_config_list(c, "arg", nargs, arg, sizeof arg)) nargs++;
  e->argv = calloc((size_t)nargs + 2, sizeof *e->argv); /* cmd, args, NULL */
  if (!e->argv || !(e->argv[0] = strdup(cmd))) goto oom;
  e->argc = 1;
  for (int i = 0; i < nargs; i++) {
    player_config_list(c, "arg", i, arg, sizeof arg);
    if (!(e->argv[e->argc] = strdup(arg))) goto oom;
    e->argc++;
  }
  /* option=Name=Value, kept joined by '\n' as the config has them. */
  for (int k = 0; !player_config_list(c, "option", k, arg, sizeof arg); k++)
    if (!strchr(arg, '=') || arg[0] == '=') {
      error_set(err, errlen, "engine: option='%s' is not Name=Value (sent as 'setoption name Name value Value')",
          arg);
      destroy(p);
      return -1;
    }
  if (player_config_isset(c, "option") && !(e->options = strdup(player_config_text(c, "option"))))
    goto oom;
  set_label(e, cmd);
  return 0;
oom:
  error_set(err, errlen, "engine: out of memory");
  destroy(p);
  return -1;
}

static const player_option options[] = {
    {"cmd", PLAYER_OPT_TEXT, NULL, 0, 0, NULL, "the engine program (looked up in PATH)"},
    {"arg", PLAYER_OPT_LIST, NULL, 0, 0, NULL, "an argument of the program (repeat for more)"},
    {"option", PLAYER_OPT_LIST, NULL, 0, 0, NULL,
     "Name=Value, sent as 'setoption name Name value Value' after uci (repeat for more)"},
    {"movetime", PLAYER_OPT_INT, "0", 0, 1e8, NULL,
     "ms per move, 'go movetime' (1000 when no depth/nodes/movetime is set)"},
    {"depth", PLAYER_OPT_INT, "0", 0, 1000, NULL, "depth per move, 'go depth' (0 = none)"},
    {"nodes", PLAYER_OPT_INT, "0", 0, 1e15, NULL, "nodes per move, 'go nodes' (0 = none)"},
    {"timeout", PLAYER_OPT_INT, "10000", 1, 1e8, NULL,
     "ms to wait for uciok/readyok, and for a move limited by depth or nodes"},
    {"margin", PLAYER_OPT_INT, "1000", 0, 1e8, NULL,
     "ms allowed beyond movetime before a move is a timeout"},
    {"grace", PLAYER_OPT_INT, "500", 0, 1e8, NULL,
     "ms to wait after stop or quit before the engine is killed"},
    {"stderr", PLAYER_OPT_CHOICE, "null", 0, 0, "null|inherit",
     "the engine's stderr: discarded, or ours"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

const player_type player_engine = {
    "engine", "an external program speaking the engine protocol (UCI as Aualé's Aalina speaks it)",
    options, create, 1};
