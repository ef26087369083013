/* options.h: a command's options declared once in a table: parsed with getopt_long, help generated. */
#ifndef OWARE_CLI_OPTIONS_H
#define OWARE_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "store/settings.h"

/* What an option's value is, and what its target points to. */
typedef enum cli_opt_type {
  CLI_FLAG,   /* no value; int *target is set to 1 */
  CLI_INT,    /* long long *target, a whole number in [lo, hi] */
  CLI_REAL,   /* double *target, a finite number in [rlo, rhi] */
  CLI_TEXT,   /* const char **target, the text as given */
  CLI_CHOICE, /* int *target, the index of the value in choices */
  CLI_CALL    /* call(option, value, err, errlen) parses it (0, or -1 with err set) */
} cli_opt_type;

typedef struct cli_option {
  const char *name;       /* the long name without the dashes: "variant" */
  cli_opt_type type;
  void *target;
  const char *value_name; /* in the help: "--games N" (CLI_CHOICE: the choices when NULL) */
  const char *help;       /* one sentence, without the default */
  const char *def;        /* parsed into target before argv, shown in the help; NULL: the
                             target keeps what the caller put there */
  long long lo, hi;       /* CLI_INT */
  double rlo, rhi;        /* CLI_REAL */
  const char *const *choices; /* CLI_CHOICE: NULL-terminated */
  int (*call)(const struct cli_option *o, const char *value, char *err, size_t errlen);
  int given;              /* set by the parser: how many times the option was given */
} cli_option;

/* Table rows; a table ends with CLI_END. */
#define CLI_O_FLAG(n, t, h) {.name = (n), .type = CLI_FLAG, .target = (t), .help = (h)}
#define CLI_O_INT(n, t, l, u, v, d, h)                                                        \
  {.name = (n), .type = CLI_INT, .target = (t), .lo = (l), .hi = (u), .value_name = (v),     \
   .def = (d), .help = (h)}
#define CLI_O_REAL(n, t, l, u, v, d, h)                                                       \
  {.name = (n), .type = CLI_REAL, .target = (t), .rlo = (l), .rhi = (u), .value_name = (v),  \
   .def = (d), .help = (h)}
#define CLI_O_TEXT(n, t, v, d, h)                                                             \
  {.name = (n), .type = CLI_TEXT, .target = (t), .value_name = (v), .def = (d), .help = (h)}
#define CLI_O_CHOICE(n, t, c, d, h)                                                           \
  {.name = (n), .type = CLI_CHOICE, .target = (t), .choices = (c), .def = (d), .help = (h)}
#define CLI_O_CALL(n, f, t, v, h)                                                             \
  {.name = (n), .type = CLI_CALL, .call = (f), .target = (t), .value_name = (v), .help = (h)}
#define CLI_END {.name = NULL}

/* One command: its name, what its help says before and after the option
 * lines, its options, and how many positional arguments it takes. */
typedef struct cli_command_spec {
  const char *cmd;   /* "perft", "bench core": for messages */
  const char *usage; /* the usage lines and what the command does */
  const char *after; /* printed after the options (or NULL) */
  cli_option *opts;
  int maxpos;        /* positional arguments allowed (more: "unexpected argument") */
} cli_command_spec;

/* cli_options_parse returns this when --help or -h was given. */
#define CLI_HELP_SHOWN (-1)

/* Parses argv (the arguments after the command's name; argv itself is not
 * changed): --name value and --name=value alike, --help/-h, "--" ending the
 * options. Sets each table default first, then the targets in argv order (a
 * repeated option: the last wins; CLI_CALL: called each time). The
 * positional arguments go to pos (room for maxpos; NULL when maxpos is 0),
 * their count to *npos. Returns 0, CLI_HELP_SHOWN, or 2 (CLI_EXIT_USAGE)
 * with a message naming the option and what it allows in err. */
int cli_options_parse(cli_command_spec *spec, int argc, char **argv, char **pos, int *npos,
                      char *err, size_t errlen);

/* Writes the help: usage, "Options:" with one line per option (value name,
 * help, default, range or choices), then the after text. */
void cli_options_help(FILE *f, const cli_command_spec *spec);

/* cli_options_parse, printing the help to stdout or the error to stderr
 * ("oware CMD: ..."). Returns 0 to go on, or 1 when the command is done,
 * with its exit code in *rc: 0 after the help, 2 after an error. */
int cli_parse(cli_command_spec *spec, int argc, char **argv, char **pos, int *npos, int *rc);

/* The options of a driver's settings (store/settings.h), one row per
 * setting, in the table's order, their targets the fields of cfg, written
 * to out (room rows; no CLI_END). A SETTINGS_POSITIVE real is read as a
 * positive number ("--c-end is '0'; expected a positive number"). Returns
 * the rows written, or -1 when room is too small. */
int cli_settings_options(const settings_key *table, void *cfg, cli_option *out, int room);

/* The option named name (without dashes) in the table, or NULL. */
cli_option *cli_option_find(cli_command_spec *spec, const char *name);

#endif
