/* options.c: option tables parsed with getopt_long; the options part of --help generated from them. */
#include "cli/options.h"
#include "core/error.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define OPT_VAL 0x100 /* getopt_long's val for row k is OPT_VAL + k */

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return 2; /* CLI_EXIT_USAGE */
}

/* "a, b or c" */
static void choices_text(const char *const *c, const char *sep, const char *last, char *buf,
                         size_t len) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; c[i] && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", i == 0 ? "" : c[i + 1] ? sep : last, c[i]);
}

/* Parses text into o's target; 0, or 2 with err naming the option. */
static int set_value(cli_option *o, const char *text, char *err, size_t errlen) {
  char *end;
  switch (o->type) {
  case CLI_FLAG:
    *(int *)o->target = 1;
    return 0;
  case CLI_TEXT:
    *(const char **)o->target = text;
    return 0;
  case CLI_INT: {
    errno = 0;
    long long x = strtoll(text, &end, 10);
    if (errno || end == text || *end || x < o->lo || x > o->hi)
      return fail(err, errlen, "--%s is '%s'; expected a whole number from %lld to %lld", o->name,
                  text, o->lo, o->hi);
    *(long long *)o->target = x;
    return 0;
  }
  case CLI_REAL: {
    errno = 0;
    double x = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(x) || !(x >= o->rlo && x <= o->rhi)) {
      if (isinf(o->rlo) && isinf(o->rhi))
        return fail(err, errlen, "--%s is '%s'; expected a number", o->name, text);
      return fail(err, errlen, "--%s is '%s'; expected a number from %g to %g", o->name, text,
                  o->rlo, o->rhi);
    }
    *(double *)o->target = x;
    return 0;
  }
  case CLI_CHOICE:
    for (int i = 0; o->choices[i]; i++)
      if (!strcmp(text, o->choices[i])) {
        *(int *)o->target = i;
        return 0;
      }
    {
      char c[256];
      choices_text(o->choices, ", ", " or ", c, sizeof c);
      return fail(err, errlen, "--%s is '%s'; expected %s", o->name, text, c);
    }
  case CLI_CALL: {
    char msg[512] = "";
    if (o->call(o, text, msg, sizeof msg)) return fail(err, errlen, "%s", msg);
    return 0;
  }
  }
  return fail(err, errlen, "--%s: unknown option type", o->name);
}

/* Whether arg is "--name" or "--name=...": getopt_long also takes unique
 * prefixes, which a stored command line must not depend on (a new option
 * could make one ambiguous). */
static int exact(const char *name, const char *arg) {
  size_t l = strlen(name);
  return arg[0] == '-' && arg[1] == '-' && !strncmp(arg + 2, name, l) &&
         (arg[2 + l] == 0 || arg[2 + l] == '=');
}

/* CLI_CALL of a SETTINGS_POSITIVE real: a finite number > 0. */
static int positive(const cli_option *o, const char *text, char *err, size_t errlen) {
  char *end;
  double x = strtod(text, &end);
  if (*end || end == text || !(x > 0) || !isfinite(x))
    return fail(err, errlen, "--%s is '%s'; expected a positive number", o->name, text), -1;
  *(double *)o->target = x;
  return 0;
}

int cli_settings_options(const settings_key *table, void *cfg, cli_option *out, int room) {
  int n = 0;
  for (const settings_key *k = table; k->key; k++, n++) {
    if (n >= room) return -1;
    void *target = (char *)cfg + k->offset;
    cli_option *o = &out[n];
    switch (k->type) {
    case SETTINGS_TEXT:
      *o = (cli_option)CLI_O_TEXT(k->key, target, k->value_name, k->def, k->help);
      break;
    case SETTINGS_INT:
      *o = (cli_option)CLI_O_INT(k->key, target, k->lo, k->hi, k->value_name, k->def, k->help);
      break;
    case SETTINGS_REAL:
      if (k->flags & SETTINGS_POSITIVE)
        *o = (cli_option)CLI_O_CALL(k->key, positive, target, k->value_name, k->help);
      else
        *o = (cli_option)CLI_O_REAL(k->key, target, k->rlo, k->rhi, k->value_name, k->def,
                                    k->help);
      break;
    case SETTINGS_FLAG:
      *o = (cli_option)CLI_O_FLAG(k->key, target, k->help);
      break;
    case SETTINGS_CHOICE:
      *o = (cli_option)CLI_O_CHOICE(k->key, target, k->choices, k->def, k->help);
      o->value_name = k->value_name;
      break;
    }
  }
  return n;
}

cli_option *cli_option_find(cli_command_spec *spec, const char *name) {
  for (cli_option *o = spec->opts; o->name; o++)
    if (!strcmp(o->name, name)) return o;
  return NULL;
}

int cli_options_parse(cli_command_spec *spec, int argc, char **argv, char **pos, int *npos,
                      char *err, size_t errlen) {
  int n = 0, rc = 0;
  *npos = 0;
  err[0] = 0;
  for (cli_option *o = spec->opts; o->name; o++, n++) {
    o->given = 0;
    if (o->def && o->type != CLI_CALL && (rc = set_value(o, o->def, err, errlen))) return rc;
  }
  struct option *lo = calloc((size_t)n + 2, sizeof *lo);
  char **av = malloc(((size_t)argc + 2) * sizeof *av);
  if (!lo || !av) {
    free(lo);
    free(av);
    return fail(err, errlen, "out of memory");
  }
  for (int k = 0; k < n; k++) {
    const cli_option *o = &spec->opts[k];
    lo[k] = (struct option){o->name, o->type == CLI_FLAG ? no_argument : required_argument, NULL,
                            OPT_VAL + k};
  }
  lo[n] = (struct option){"help", no_argument, NULL, 'h'};
  /* getopt_long reads from av[1]; av is ours to reorder. */
  av[0] = (char *)spec->cmd;
  for (int i = 0; i < argc; i++) av[i + 1] = argv[i];
  av[argc + 1] = NULL;
  int ac = argc + 1;
  optind = 0; /* glibc: start afresh */
  opterr = 0;
  int c;
  /* '-': positional arguments come back in order as 1; ':': a missing value as ':'. */
  while (!rc && (c = getopt_long(ac, av, "-:h", lo, NULL)) != -1) {
    if (c == 1) {
      if (*npos >= spec->maxpos)
        rc = fail(err, errlen, "unexpected argument '%s' (see --help)", optarg);
      else
        pos[(*npos)++] = optarg;
    } else if (c == 'h') {
      if (strcmp(av[optind - 1], "-h") && !exact("help", av[optind - 1]))
        rc = fail(err, errlen, "unknown option '%s' (see --help)", av[optind - 1]);
      else
        rc = CLI_HELP_SHOWN;
    } else if (c == ':') {
      if (optopt >= OPT_VAL && optopt < OPT_VAL + n) {
        const cli_option *o = &spec->opts[optopt - OPT_VAL];
        rc = fail(err, errlen, "option --%s needs a value (%s)", o->name,
                  o->value_name ? o->value_name : "see --help");
      } else {
        rc = fail(err, errlen, "option '%s' needs a value", av[optind - 1]);
      }
    } else if (c == '?') {
      if (optopt >= OPT_VAL && optopt < OPT_VAL + n)
        rc = fail(err, errlen, "option --%s takes no value", spec->opts[optopt - OPT_VAL].name);
      else if (optopt == 'h')
        rc = fail(err, errlen, "option --help takes no value");
      else if (optopt)
        rc = fail(err, errlen, "unknown option '-%c' (see --help)", optopt);
      else
        rc = fail(err, errlen, "unknown option '%s' (see --help)", av[optind - 1]);
    } else if (c >= OPT_VAL && c < OPT_VAL + n) {
      cli_option *o = &spec->opts[c - OPT_VAL];
      /* the word naming the option: the one before a separate value */
      const char *word = optarg && optarg == av[optind - 1] ? av[optind - 2] : av[optind - 1];
      if (!exact(o->name, word)) {
        rc = fail(err, errlen, "unknown option '%s' (see --help)", word);
      } else {
        o->given++;
        rc = set_value(o, optarg, err, errlen);
      }
    }
  }
  for (int i = optind; !rc && c == -1 && i < ac; i++) { /* after "--" */
    if (*npos >= spec->maxpos)
      rc = fail(err, errlen, "unexpected argument '%s' (see --help)", av[i]);
    else
      pos[(*npos)++] = av[i];
  }
  free(lo);
  free(av);
  return rc;
}

/* Writes text from column col, wrapped at 79 columns, continuation lines indented to indent. */
static void wrap(FILE *f, const char *text, int col, int indent) {
  const char *p = text;
  while (*p) {
    while (*p == ' ') p++;
    size_t w = strcspn(p, " ");
    if (col > indent && col + 1 + (int)w > 79) {
      fprintf(f, "\n%*s", indent, "");
      col = indent;
    } else if (col > indent) {
      fputc(' ', f);
      col++;
    }
    fwrite(p, 1, w, f);
    col += (int)w;
    p += w;
  }
  fputc('\n', f);
}

void cli_options_help(FILE *f, const cli_command_spec *spec) {
  fputs(spec->usage, f);
  char left[128], help[1024], c[512];
  int width = 8; /* "  --help" */
  for (const cli_option *o = spec->opts; o->name; o++) {
    int l = 4 + (int)strlen(o->name);
    if (o->type == CLI_CHOICE && !o->value_name) {
      choices_text(o->choices, "|", "|", c, sizeof c);
      l += 1 + (int)strlen(c);
    } else if (o->type != CLI_FLAG) {
      l += 1 + (int)strlen(o->value_name ? o->value_name : "X");
    }
    if (l > width && l <= 26) width = l;
  }
  fputs("Options:\n", f);
  for (const cli_option *o = spec->opts; o->name; o++) {
    const char *v = o->value_name ? o->value_name : "X";
    if (o->type == CLI_CHOICE && !o->value_name) {
      choices_text(o->choices, "|", "|", c, sizeof c);
      v = c;
    }
    /* A long choice list is cut in the left column (the help gives it whole). */
    int m = snprintf(left, sizeof left, "  --%s%s%.*s", o->name, o->type == CLI_FLAG ? "" : " ",
                     (int)(sizeof left / 2), o->type == CLI_FLAG ? "" : v);
    (void)m;
    size_t n = (size_t)snprintf(help, sizeof help, "%s", o->help ? o->help : "");
    if (o->type == CLI_INT && o->hi < LLONG_MAX && n < sizeof help)
      n += (size_t)snprintf(help + n, sizeof help - n, " [%lld..%lld]", o->lo, o->hi);
    if (o->type == CLI_REAL && isfinite(o->rlo) && isfinite(o->rhi) && n < sizeof help)
      n += (size_t)snprintf(help + n, sizeof help - n, " [%g..%g]", o->rlo, o->rhi);
    if (o->def && n < sizeof help)
      snprintf(help + n, sizeof help - n, " (default %s)", o->def);
    fputs(left, f);
    int col = (int)strlen(left);
    if (col > width) {
      fprintf(f, "\n%*s", width + 2, "");
    } else {
      fprintf(f, "%*s", width + 2 - col, "");
    }
    wrap(f, help, width + 2, width + 2);
  }
  fprintf(f, "  --help%*s", width + 2 - 8, "");
  wrap(f, "print this help", width + 2, width + 2);
  if (spec->after) fputs(spec->after, f);
}

int cli_parse(cli_command_spec *spec, int argc, char **argv, char **pos, int *npos, int *rc) {
  char err[ERROR_MAX];
  int r = cli_options_parse(spec, argc, argv, pos, npos, err, sizeof err);
  if (r == CLI_HELP_SHOWN) {
    cli_options_help(stdout, spec);
    *rc = 0;
    return 1;
  }
  if (r) {
    fprintf(stderr, "oware %s: %s\n", spec->cmd, err);
    *rc = r;
    return 1;
  }
  return 0;
}
