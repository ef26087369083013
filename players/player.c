/* player.c: registry of player types, spec parsing against option tables, common hooks. */
#include "players/player.h"
#include "core/error.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/notation.h"
#include "core/rng.h"
#include "core/name.h"

const char *player_status_name(player_status s) {
  static const char *const names[] = {"ok", "timeout", "illegal", "crash", "protocol", "error"};
  return names[s];
}

int player_type_takes(const player_type *t, const char *name) {
  for (const player_option *o = t ? t->options : NULL; o && o->name; o++)
    if (!strcmp(o->name, name)) return 1;
  return 0;
}

static int option_index(const player_type *t, const char *name, size_t len) {
  for (int i = 0; t->options[i].name; i++)
    if (strlen(t->options[i].name) == len && !strncmp(t->options[i].name, name, len)) return i;
  return -1;
}

/* The value of option `name`: a name the type does not have (a mistake in
 * the caller's code) reads as an unset value (0, 0.0, NULL). */
static const player_value *value_of(const player_config *c, const char *name) {
  static const player_value unset;
  int i = option_index(c->type, name, strlen(name));
  return i < 0 ? &unset : &c->v[i];
}

/* Reads a value of option o from text into val. */
static int read_value(const player_option *o, const char *text, size_t len, player_value *val,
                      char *err, size_t errlen) {
  char buf[1024];
  if (len >= sizeof buf) {
    error_set(err, errlen, "option '%s': value is longer than %zu characters", o->name, sizeof buf - 1);
    return -1;
  }
  memcpy(buf, text, len);
  buf[len] = '\0';
  char *end;
  switch (o->type) {
  case PLAYER_OPT_INT: {
    errno = 0;
    long long x = strtoll(buf, &end, 10);
    if (errno || end == buf || *end || (double)x < o->lo || (double)x > o->hi) {
      error_set(err, errlen, "option '%s' is '%s'; allowed: a whole number from %.0f to %.0f", o->name, buf, o->lo,
          o->hi);
      return -1;
    }
    val->i = x;
    val->r = (double)x;
    break;
  }
  case PLAYER_OPT_REAL: {
    errno = 0;
    double x = strtod(buf, &end);
    if (errno || end == buf || *end || !isfinite(x) || x < o->lo || x > o->hi) {
      error_set(err, errlen, "option '%s' is '%s'; allowed: a number from %g to %g", o->name, buf, o->lo, o->hi);
      return -1;
    }
    val->r = x;
    val->i = (long long)x;
    break;
  }
  case PLAYER_OPT_CHOICE: {
    const char *c = o->choices;
    int ok = 0;
    while (*c) {
      const char *bar = strchr(c, '|');
      size_t l = bar ? (size_t)(bar - c) : strlen(c);
      if (l == len && !strncmp(c, buf, len)) ok = 1;
      c += l + (bar != NULL);
    }
    if (!ok) {
      error_set(err, errlen, "option '%s' is '%s'; allowed: %s", o->name, buf, o->choices);
      return -1;
    }
  } /* fall through: keep the text */
  /* FALLTHROUGH */
  case PLAYER_OPT_TEXT:
    if (len == 0 && o->type == PLAYER_OPT_TEXT) {
      error_set(err, errlen, "option '%s' is empty", o->name);
      return -1;
    }
    free(val->text);
    val->text = strdup(buf);
    if (!val->text) {
      error_set(err, errlen, "out of memory");
      return -1;
    }
    break;
  case PLAYER_OPT_LIST: {
    size_t old = val->text ? strlen(val->text) : 0;
    char *t = realloc(val->text, old + len + 2);
    if (!t) {
      error_set(err, errlen, "out of memory");
      return -1;
    }
    if (old) t[old++] = '\n';
    memcpy(t + old, buf, len + 1);
    val->text = t;
    break;
  }
  }
  return 0;
}

static void list_options(const player_type *t, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "seed, name, tc");
  for (int i = 0; t->options[i].name && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, ", %s", t->options[i].name);
}

void player_config_clear(player_config *cfg) {
  for (int i = 0; i < PLAYER_MAX_OPTIONS; i++) {
    free(cfg->v[i].text);
    cfg->v[i].text = NULL;
  }
}

int player_spec_item(const char *spec, const char **pp, char *buf, char *err, size_t errlen) {
  const char *p = *pp;
  size_t n = 0;
  int seen_eq = 0;
  while (*p && *p != ',') {
    if (*p == '\\' && (p[1] == ',' || p[1] == '\\' || p[1] == '"')) {
      buf[n++] = p[1];
      p += 2;
    } else if (*p == '"' && seen_eq && n && buf[n - 1] == '=' && memchr(buf, '=', n) == buf + n - 1) {
      const char *open = p++;
      for (;;) {
        if (!*p) {
          error_set(err, errlen, "player spec '%s': the quote opened at '%.20s' is never closed", spec, open);
          return -1;
        }
        if (*p == '\\' && (p[1] == '\\' || p[1] == '"')) {
          buf[n++] = p[1];
          p += 2;
        } else if (*p == '"') {
          p++;
          break;
        } else {
          buf[n++] = *p++;
        }
      }
      if (*p && *p != ',') {
        error_set(err, errlen, "player spec '%s': '%c' after the closing quote of '%.*s'; a quoted value ends "
            "the option", spec, *p, (int)(p - open), open);
        return -1;
      }
    } else {
      seen_eq |= *p == '=';
      buf[n++] = *p++;
    }
  }
  buf[n] = '\0';
  *pp = p;
  return 0;
}

int player_spec_is_type(const char *spec, const char *type) {
  size_t tl = strlen(type);
  return !strncmp(spec, type, tl) && (!spec[tl] || spec[tl] == ':');
}

int player_spec_has(const char *spec, const char *key) {
  const char *p = strchr(spec, ':');
  if (!p) return 0;
  char *item = malloc(strlen(spec) + 1);
  if (!item) return -1;
  size_t kl = strlen(key);
  int found = 0;
  for (p++; *p && !found; p += *p == ',') {
    if (player_spec_item(spec, &p, item, NULL, 0)) break;
    found = !strncmp(item, key, kl) && item[kl] == '=';
  }
  free(item);
  return found;
}

int player_spec_append(const char *spec, const char *item, char **out) {
  const char *colon = strchr(spec, ':');
  const char *sep = !colon ? ":" : colon[1] ? "," : ""; /* "type", "type:x", "type:" */
  size_t len = strlen(spec) + strlen(sep) + strlen(item) + 1;
  if (!(*out = malloc(len))) return -1;
  snprintf(*out, len, "%s%s%s", spec, sep, item);
  return 0;
}

/* The value of seed=: a whole number from 0 to 2^64-1. */
static int read_seed(const char *val, size_t vlen, player_config *cfg, char *err, size_t errlen) {
  char buf[32], *end;
  if (vlen > 0 && vlen < sizeof buf) {
    memcpy(buf, val, vlen);
    buf[vlen] = '\0';
    errno = 0;
    unsigned long long s = strtoull(buf, &end, 10);
    if (!errno && !*end && buf[0] != '-') {
      cfg->seed = s;
      return 0;
    }
  }
  error_set(err, errlen, "option 'seed' is '%s'; allowed: a whole number from 0 to 18446744073709551615", val);
  return -1;
}

/* The value of tc=: a time control (core/time_control.h). */
static int read_tc(const char *val, player_config *cfg, char *err, size_t errlen) {
  if (time_control_on(&cfg->tc)) {
    error_set(err, errlen, "option 'tc' is given twice");
    return -1;
  }
  return time_control_parse(val, &cfg->tc, err, errlen);
}

/* The option of cfg's type whose key is the first klen characters of key. */
static int read_option(const char *key, size_t klen, const char *val, size_t vlen, player_config *cfg,
                       char *err, size_t errlen) {
  const player_type *t = cfg->type;
  int i = option_index(t, key, klen);
  if (i < 0) {
    char opts[512];
    list_options(t, opts, sizeof opts);
    error_set(err, errlen, "unknown option '%.*s' for player type %s; options: %s", (int)klen, key, t->name,
        opts);
    return -1;
  }
  const player_option *o = &t->options[i];
  if (cfg->v[i].set && o->type != PLAYER_OPT_LIST) {
    error_set(err, errlen, "option '%s' is given twice", o->name);
    return -1;
  }
  if (read_value(o, val, vlen, &cfg->v[i], err, errlen)) return -1;
  cfg->v[i].set = 1;
  return 0;
}

/* One item of spec, "key=value": seed=, name=, a plug-in's path= or an
 * option of cfg's type. */
static int read_item(const char *spec, const char *it, player_config *cfg, char *err, size_t errlen) {
  size_t l = strlen(it);
  const char *eq = memchr(it, '=', l);
  if (!eq || eq == it) {
    char opts[512];
    list_options(cfg->type, opts, sizeof opts);
    error_set(err, errlen, "player spec '%s': '%s' is not key=value; options of %s: %s", spec, it,
        cfg->type->name, opts);
    return -1;
  }
  size_t klen = (size_t)(eq - it);
  const char *val = eq + 1;
  size_t vlen = l - klen - 1;
  if (klen == 4 && !strncmp(it, "seed", 4)) return read_seed(val, vlen, cfg, err, errlen);
  if (klen == 4 && !strncmp(it, "name", 4)) {
    if (vlen == 0 || vlen >= sizeof cfg->name) {
      error_set(err, errlen, "option 'name' must have 1 to %d characters", PLAYER_NAME_MAX - 1);
      return -1;
    }
    memcpy(cfg->name, val, vlen);
    cfg->name[vlen] = '\0';
    return 0;
  }
  if (klen == 2 && !strncmp(it, "tc", 2)) return read_tc(val, cfg, err, errlen);
  if (cfg->plugin && klen == 4 && !strncmp(it, "path", 4)) return 0; /* path= of a plug-in, already used */
  return read_option(it, klen, val, vlen, cfg, err, errlen);
}

/* A name is shown in listings and written into OGN tags: one line of text. */
static int check_name(const char *name, char *err, size_t errlen) {
  return name_check("player name", name, err, errlen);
}

/* Defaults for what was not given. */
static int set_defaults(player_config *cfg, char *err, size_t errlen) {
  for (int i = 0; cfg->type->options[i].name; i++) {
    const player_option *o = &cfg->type->options[i];
    if (cfg->v[i].set || !o->def) continue;
    if (read_value(o, o->def, strlen(o->def), &cfg->v[i], err, errlen)) return -1;
  }
  return 0;
}

/* The items of spec, one by one; *p runs over them. */
static int read_items(const char *spec, const char *p, char *item, player_config *cfg, char *err,
                      size_t errlen) {
  while (*p) {
    if (player_spec_item(spec, &p, item, err, errlen) || read_item(spec, item, cfg, err, errlen)) return -1;
    if (*p == ',') {
      p++;
      if (!*p) {
        error_set(err, errlen, "player spec '%s': trailing ','", spec);
        return -1;
      }
    }
  }
  return 0;
}

int player_config_parse(const player_type *t, const char *spec, const char *items, player_config *cfg,
                        char *err, size_t errlen) {
  char *item = malloc(strlen(spec) + 1);
  if (!item) {
    error_set(err, errlen, "out of memory");
    return -1;
  }
  cfg->type = t;
  snprintf(cfg->name, sizeof cfg->name, "%s", spec);
  cfg->tc = (time_control){0, 0, 0};
  cfg->tc_margin_ms = PLAYER_TC_MARGIN_MS;
  int rc = -1;
  if (items && !*items)
    error_set(err, errlen, "player spec '%s': nothing after ':'", spec);
  else if (!read_items(spec, items ? items : "", item, cfg, err, errlen) &&
           !check_name(cfg->name, err, errlen))
    rc = set_defaults(cfg, err, errlen);
  free(item);
  if (rc) player_config_clear(cfg);
  return rc;
}

long long player_config_int(const player_config *c, const char *name) {
  return value_of(c, name)->i;
}

double player_config_real(const player_config *c, const char *name) {
  return value_of(c, name)->r;
}

const char *player_config_text(const player_config *c, const char *name) {
  return value_of(c, name)->text;
}

int player_config_isset(const player_config *c, const char *name) {
  return value_of(c, name)->set;
}

int player_config_list(const player_config *c, const char *name, int k, char *buf, size_t len) {
  const char *t = value_of(c, name)->text;
  if (!t) return -1;
  for (; k > 0; k--) {
    t = strchr(t, '\n');
    if (!t) return -1;
    t++;
  }
  const char *nl = strchr(t, '\n');
  size_t l = nl ? (size_t)(nl - t) : strlen(t);
  if (l >= len) l = len - 1;
  memcpy(buf, t, l);
  buf[l] = '\0';
  return 0;
}

const player_param_info *player_params(const player *p) {
  static const player_param_info none[] = {{NULL, NULL, 0, 0, 0, 0, 0}};
  const player_param_info *list = p->params ? p->params(p) : NULL;
  return list ? list : none;
}

const player_param_info *player_find_param(const player *p, const char *name) {
  for (const player_param_info *i = player_params(p); i->name; i++)
    if (!strcmp(i->name, name)) return i;
  return NULL;
}

int player_set_param(player *p, const char *name, double value, char *err, size_t errlen) {
  const player_param_info *info = player_find_param(p, name);
  if (!info || !p->set_param) {
    const player_param_info *list = player_params(p);
    if (!list->name) {
      error_set(err, errlen, "%s: a %s player takes no parameters (no '%s')", p->name,
               p->type->name, name);
      return -1;
    }
    error_set(err, errlen, "%s: no parameter '%s' (parameters:", p->name, name);
    for (; list->name; list++) error_append(err, errlen, " %s", list->name);
    error_append(err, errlen, ")");
    return -1;
  }
  if (!isfinite(value) || value < info->lo || value > info->hi) {
    error_set(err, errlen, "%s: parameter %s = %g is outside %g..%g", p->name, name, value, info->lo,
             info->hi);
    return -1;
  }
  if (info->integer) value = round(value);
  return p->set_param(p, info->name, value, err, errlen);
}

int player_set_params(player *p, const player_param *params, int n, char *err, size_t errlen) {
  for (int i = 0; i < n; i++)
    if (player_set_param(p, params[i].name, params[i].value, err, errlen)) return -1;
  return 0;
}

int player_new_game(player *p, const variant *v, uint64_t game_seed, char *err,
                    size_t errlen) {
  p->v = *v;
  p->game_seed = game_seed;
  atomic_store(&p->stop, 0);
  return p->new_game ? p->new_game(p, v, err, errlen) : 0;
}

player_status player_choose(player *p, const game *g, const player_limits *lim, int *move,
                            player_info *info, char *err, size_t errlen) {
  player_info local;
  if (!info) info = &local;
  memset(info, 0, sizeof *info);
  *move = -1;
  err[0] = '\0';
  player_status s = p->choose(p, g, lim, move, info, err, errlen);
  if (s != PLAYER_OK) return s;
  if (*move < 0 || *move >= g->v.pits || !(g->legal >> *move & 1)) {
    char legal[64];
    notation_format_legal(&g->v, g->legal, legal, sizeof legal);
    if (*move >= 0 && *move < g->v.pits)
      error_set(err, errlen, "%s chose %c, which is not legal (legal: %s)", p->name,
          notation_move_letter(&g->v, *move), legal);
    else
      error_set(err, errlen, "%s chose no valid house (legal: %s)", p->name, legal);
    return PLAYER_ILLEGAL;
  }
  return PLAYER_OK;
}

uint64_t player_position_seed(const player *p, const game *g) {
  uint64_t s = rng_mix(p->seed, p->game_seed);
  s = rng_mix(s, g->pos.key ^ board_store_key(g->pos.store[0]));
  return rng_mix(s, (uint64_t)g->plies);
}

static void print_type(FILE *f, const player_type *t) {
  fprintf(f, "%s: %s\n", t->name, t->summary);
  fprintf(f, "  %-12s %-8s %-12s %s\n", "seed", "int", "1", "seed of every random choice");
  fprintf(f, "  %-12s %-8s %-12s %s\n", "name", "text", "the spec", "name in results");
  fprintf(f, "  %-12s %-8s %-12s %s\n", "tc", "clock", "-",
          "game clock kept by the harness: BASE+INC or MOVES/BASE[+INC] in seconds (10+0.1, 40/60)");
  for (int i = 0; t->options[i].name; i++) {
    const player_option *o = &t->options[i];
    char range[64];
    static const char *const types[] = {"int", "real", "text", "choice", "list"};
    switch (o->type) {
    case PLAYER_OPT_INT: snprintf(range, sizeof range, "%.0f..%.0f", o->lo, o->hi); break;
    case PLAYER_OPT_REAL: snprintf(range, sizeof range, "%g..%g", o->lo, o->hi); break;
    case PLAYER_OPT_CHOICE: snprintf(range, sizeof range, "%s", o->choices); break;
    default: range[0] = '\0';
    }
    fprintf(f, "  %-12s %-8s %-12s %s%s%s%s%s\n", o->name, types[o->type], o->def ? o->def : "-",
            o->help, *range ? " [" : "", range, *range ? "]" : "", "");
  }
}

void player_type_help(void *file, const player_type *t) { print_type(file, t); }

void *player_setup(player *p, const player_hooks *h, size_t size, char *err, size_t errlen) {
  void *data = calloc(1, size);
  if (!data) {
    error_set(err, errlen, "%s: out of memory", p->config.type->name);
    return NULL;
  }
  p->data = data;
  p->new_game = h->new_game;
  p->choose = h->choose;
  p->destroy = h->destroy;
  p->params = h->params;
  p->set_param = h->set_param;
  return data;
}
