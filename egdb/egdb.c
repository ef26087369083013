/* egdb.c: the position index, the variant key, table files (write, map, check) and probes. */
#include "egdb/egdb.h"
#include "core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "egdb/egdb_file.h"

/* ---- Index ---- */

#define BINOM_N (EGDB_MAX_SEEDS + VARIANT_MAX_PITS + 1)
static uint64_t binom[BINOM_N][VARIANT_MAX_PITS + 1];

/* Filled once on first use; the table is small and the fill idempotent, but
 * to stay free of data races it is filled by a constructor. */
__attribute__((constructor)) static void binom_init(void) {
  for (int i = 0; i < BINOM_N; i++) {
    binom[i][0] = 1;
    for (int j = 1; j <= VARIANT_MAX_PITS; j++)
      binom[i][j] = i == 0 ? 0 : binom[i - 1][j - 1] + binom[i - 1][j];
  }
}

uint64_t egdb_count(int n, int pits) { return binom[n + pits - 1][pits - 1]; }

/* The counts are stars and bars: bar j sits at a_0 + ... + a_j + j, and the
 * rank is the colexicographic rank of the set of bars, sum C(bar_j, j + 1). */
uint64_t egdb_rank(const uint8_t *pit, int pits, int n) {
  (void)n;
  uint64_t r = 0;
  int s = 0;
  for (int j = 0; j < pits - 1; j++) {
    s += pit[j] + 1;
    r += binom[s - 1][j + 1];
  }
  return r;
}

void egdb_unrank(uint64_t index, int pits, int n, uint8_t *pit) {
  int bar[VARIANT_MAX_PITS];
  int hi = n + pits - 1; /* bars lie below this */
  for (int j = pits - 2; j >= 0; j--) {
    int b = hi - 1;
    while (binom[b][j + 1] > index) b--;
    index -= binom[b][j + 1];
    bar[j] = b;
    hi = b;
  }
  int prev = -1;
  for (int j = 0; j < pits - 1; j++) {
    pit[j] = (uint8_t)(bar[j] - prev - 1);
    prev = bar[j];
  }
  pit[pits - 1] = (uint8_t)(n + pits - 2 - prev);
}

void egdb_normalise(const board *b, const variant *v, uint8_t *pit) {
  const int P = v->pits, off = b->side * v->houses;
  for (int i = 0; i < P; i++) pit[i] = b->pit[(off + i) % P];
}

/* ---- Variants ---- */

int egdb_variant_key(const variant *v, char *key, size_t keylen, char *err, size_t errlen) {
  if (v->grand_slam == VARIANT_GS_WIN) {
    error_set(err, errlen,
             "variant grand_slam=win is not supported: its captures depend on the stores, "
             "which the database does not index");
    return EGDB_EUNSUPPORTED;
  }
  variant k = *v, d;
  variant_default(&d);
  k.repetition = d.repetition;
  k.max_plies = d.max_plies;
  k.seeds = d.seeds;
  variant_finish(&k);
  variant_format(&k, key, keylen);
  return 0;
}

int egdb_has_split(const variant *v) { return v->cycle == VARIANT_CYCLE_SPLIT; }

void egdb_path(const char *dir, const char *key, int n, char *buf, size_t len) {
  snprintf(buf, len, "%s/%s/n%02d.egdb", *dir ? dir : ".", key, n);
}

/* ---- Files ---- */

static const char magic[8] = {'O', 'W', 'A', 'R', 'E', 'D', 'B', '1'};

/* Header layout (little-endian, EGDB_HEADER_SIZE bytes):
 *   0 magic[8]  8 u32 version  12 u32 n  16 u64 count  24 u32 tables
 *   28 u32 pits  32 u64 checksum  40 char variant[80]  120 reserved. */
#define OFF_VERSION 8
#define OFF_N 12
#define OFF_COUNT 16
#define OFF_TABLES 24
#define OFF_PITS 28
#define OFF_SUM 32
#define OFF_VARIANT 40
#define VARIANT_FIELD 80
#define FILE_VERSION 1

static void put32(uint8_t *p, uint32_t x) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(x >> (8 * i));
}
static void put64(uint8_t *p, uint64_t x) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(x >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
  uint32_t x = 0;
  for (int i = 0; i < 4; i++) x |= (uint32_t)p[i] << (8 * i);
  return x;
}
static uint64_t get64(const uint8_t *p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; i++) x |= (uint64_t)p[i] << (8 * i);
  return x;
}

uint64_t egdb_checksum(uint64_t h, const uint8_t *p, size_t len) {
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 29;
  }
  for (; i < len; i++) {
    h = (h ^ p[i]) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
  }
  return h;
}

#define SUM_SEED 0x9e3779b97f4a7c15ULL

int egdb_file_write(const char *path, const char *key, int n, int pits, uint64_t count,
                    const uint8_t *const *tables, int ntables, char *err, size_t errlen) {
  uint8_t h[EGDB_HEADER_SIZE];
  memset(h, 0, sizeof h);
  memcpy(h, magic, sizeof magic);
  put32(h + OFF_VERSION, FILE_VERSION);
  put32(h + OFF_N, (uint32_t)n);
  put64(h + OFF_COUNT, count);
  put32(h + OFF_TABLES, (uint32_t)ntables);
  put32(h + OFF_PITS, (uint32_t)pits);
  uint64_t sum = SUM_SEED;
  for (int t = 0; t < ntables; t++) sum = egdb_checksum(sum, tables[t], count);
  put64(h + OFF_SUM, sum);
  snprintf((char *)h + OFF_VARIANT, VARIANT_FIELD, "%s", key);

  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    error_set(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    return EGDB_EIO;
  }
  int ok = fwrite(h, 1, sizeof h, f) == sizeof h;
  for (int t = 0; ok && t < ntables; t++) ok = fwrite(tables[t], 1, count, f) == count;
  ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
  int e = errno;
  if (fclose(f) != 0 && ok) ok = 0, e = errno;
  if (!ok || rename(tmp, path) != 0) {
    if (ok) e = errno;
    error_set(err, errlen, "cannot write %s: %s", path, strerror(e));
    remove(tmp);
    return EGDB_EIO;
  }
  return 0;
}

/* Whether the tables of the mapped file h match the checksum in its header. */
static int checksum_ok(const uint8_t *h, uint64_t count, int ntables) {
  uint64_t sum = SUM_SEED; /* chained table by table, as the writer does */
  for (int t = 0; t < ntables; t++)
    sum = egdb_checksum(sum, h + EGDB_HEADER_SIZE + (size_t)t * count, count);
  return sum == get64(h + OFF_SUM);
}

/* The files this process has verified, by what would change if one were
 * rewritten, replaced or damaged in place (a write sets the mtime). */
typedef struct verified_file {
  dev_t dev;
  ino_t ino;
  off_t size;
  struct timespec mtime;
  uint64_t sum; /* the checksum its header holds */
} verified_file;

#define VERIFIED_MAX 1024
static pthread_mutex_t verified_lock = PTHREAD_MUTEX_INITIALIZER;
static verified_file verified[VERIFIED_MAX];
static int nverified;

static int verified_known(const verified_file *f) {
  for (int i = 0; i < nverified; i++) {
    const verified_file *g = &verified[i];
    if (g->dev == f->dev && g->ino == f->ino && g->size == f->size && g->sum == f->sum &&
        g->mtime.tv_sec == f->mtime.tv_sec && g->mtime.tv_nsec == f->mtime.tv_nsec)
      return 1;
  }
  return 0;
}

/* Verifies the checksum of the mapped file h (st its fstat), once a process
 * unless always: a file verified before and unchanged since is trusted.
 * One verification at a time, so that threads opening the same tables
 * together read them once. */
static int verify_file(const struct stat *st, const uint8_t *h, uint64_t count, int ntables,
                       int always) {
  verified_file f = {st->st_dev, st->st_ino, st->st_size, st->st_mtim, get64(h + OFF_SUM)};
  pthread_mutex_lock(&verified_lock);
  int ok = !always && verified_known(&f);
  if (!ok) {
    ok = checksum_ok(h, count, ntables);
    if (ok && nverified < VERIFIED_MAX && !verified_known(&f)) verified[nverified++] = f;
  }
  pthread_mutex_unlock(&verified_lock);
  return ok;
}

int egdb_file_map(const char *path, const char *key, int n, int pits, int ntables, int verify,
                  egdb_level *lv, char *err, size_t errlen) {
  memset(lv, 0, sizeof *lv);
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    int e = errno;
    error_set(err, errlen, "cannot open %s: %s", path, strerror(e));
    return EGDB_EIO;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    error_set(err, errlen, "cannot read %s: %s", path, strerror(errno));
    close(fd);
    return EGDB_EIO;
  }
  uint64_t count = egdb_count(n, pits);
  uint64_t want = EGDB_HEADER_SIZE + count * (uint64_t)ntables;
  if ((uint64_t)st.st_size < EGDB_HEADER_SIZE) {
    error_set(err, errlen, "%s is truncated: %lld bytes, less than a header", path,
             (long long)st.st_size);
    close(fd);
    return EGDB_ECORRUPT;
  }
  void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) {
    error_set(err, errlen, "cannot map %s: %s", path, strerror(errno));
    return EGDB_EIO;
  }
  const uint8_t *h = map;
  const char *what = NULL;
  char buf[160];
  char name[VARIANT_FIELD + 1];
  memcpy(name, h + OFF_VARIANT, VARIANT_FIELD);
  name[VARIANT_FIELD] = '\0';
  if (memcmp(h, magic, sizeof magic)) {
    what = "not an oware endgame table (bad magic)";
  } else if (get32(h + OFF_VERSION) != FILE_VERSION) {
    snprintf(buf, sizeof buf, "file format version %u, this program reads %d",
             get32(h + OFF_VERSION), FILE_VERSION);
    what = buf;
  } else if (strcmp(name, key)) {
    snprintf(buf, sizeof buf, "table of variant '%s', expected '%s'", name, key);
    what = buf;
  } else if (get32(h + OFF_N) != (uint32_t)n || get32(h + OFF_PITS) != (uint32_t)pits ||
             get32(h + OFF_TABLES) != (uint32_t)ntables || get64(h + OFF_COUNT) != count) {
    snprintf(buf, sizeof buf, "header says %u seeds, %u houses, %u tables, %llu positions; expected %d, %d, %d, %llu",
             get32(h + OFF_N), get32(h + OFF_PITS), get32(h + OFF_TABLES),
             (unsigned long long)get64(h + OFF_COUNT), n, pits, ntables,
             (unsigned long long)count);
    what = buf;
  } else if ((uint64_t)st.st_size != want) {
    snprintf(buf, sizeof buf, "%s: %lld bytes, expected %llu",
             (uint64_t)st.st_size < want ? "truncated" : "too long", (long long)st.st_size,
             (unsigned long long)want);
    what = buf;
  } else if (verify && !verify_file(&st, h, count, ntables, verify == EGDB_FILE_ALWAYS)) {
    what = "checksum mismatch (the file is corrupt)";
  }
  if (what) {
    error_set(err, errlen, "%s: %s", path, what);
    munmap(map, (size_t)st.st_size);
    return EGDB_ECORRUPT;
  }
  lv->map = map;
  lv->len = (size_t)st.st_size;
  lv->count = count;
  for (int t = 0; t < ntables; t++) lv->t[t] = h + EGDB_HEADER_SIZE + (size_t)t * count;
  return 0;
}

void egdb_file_unmap(egdb_level *lv) {
  if (lv->map) munmap(lv->map, lv->len);
  memset(lv, 0, sizeof *lv);
}

/* ---- Reading ---- */

struct egdb {
  variant v;
  int max_n, split;
  egdb_level lv[EGDB_MAX_SEEDS + 1];
};

int egdb_open(const char *dir, const variant *v, int max_n, int flags, egdb **out, char *err,
              size_t errlen) {
  char key[128], path[4096];
  *out = NULL;
  int rc = egdb_variant_key(v, key, sizeof key, err, errlen);
  if (rc) return rc;
  egdb *db = calloc(1, sizeof *db);
  if (!db) {
    error_set(err, errlen, "out of memory");
    return EGDB_EMEMORY;
  }
  db->v = *v;
  db->split = egdb_has_split(v);
  db->max_n = -1;
  int last = max_n < 0 || max_n > EGDB_MAX_SEEDS ? EGDB_MAX_SEEDS : max_n;
  for (int n = 0; n <= last; n++) {
    egdb_path(dir, key, n, path, sizeof path);
    if (access(path, F_OK) != 0) {
      /* The tables end here, unless a larger one is there: a gap (a file
       * lost), which would silently cut the coverage to n - 1. */
      for (int m = n + 1; m <= EGDB_MAX_SEEDS; m++) {
        char more[4096];
        egdb_path(dir, key, m, more, sizeof more);
        if (access(more, F_OK) == 0) {
          error_set(err, errlen, "%s is missing, but %s is there: the tables have a gap (build it "
                    "again with 'oware egdb build --seeds %d')", path, more, m);
          egdb_close(db);
          return EGDB_ECORRUPT;
        }
      }
      break;
    }
    int verify = flags & EGDB_VERIFY ? EGDB_FILE_ALWAYS
                 : flags & EGDB_HEADER_ONLY ? EGDB_FILE_HEADER : EGDB_FILE_ONCE;
    rc = egdb_file_map(path, key, n, v->pits, db->split ? 3 : 2, verify, &db->lv[n], err, errlen);
    if (rc) {
      egdb_close(db);
      return rc;
    }
    db->max_n = n;
  }
  if (db->max_n < 0) {
    egdb_path(dir, key, 0, path, sizeof path);
    error_set(err, errlen, "no endgame tables for variant '%s' in %s (no %s; build them with 'oware egdb build')",
             key, dir, path);
    egdb_close(db);
    return EGDB_EIO;
  }
  *out = db;
  return 0;
}

void egdb_close(egdb *db) {
  if (!db) return;
  for (int n = 0; n <= EGDB_MAX_SEEDS; n++) egdb_file_unmap(&db->lv[n]);
  free(db);
}

int egdb_max_seeds(const egdb *db) { return db->max_n; }

uint64_t egdb_digest(const egdb *db) {
  uint64_t h = 0x6f77617265656764ULL; /* "owareegd" */
  for (int n = 0; n <= db->max_n; n++) h = egdb_checksum(h, db->lv[n].map, EGDB_HEADER_SIZE);
  return h;
}

uint32_t egdb_key_hash(const char *key) {
  uint64_t h = egdb_checksum(0x6b6579ULL, (const uint8_t *)key, strlen(key));
  return (uint32_t)(h ^ (h >> 32));
}
int egdb_split(const egdb *db) { return db->split; }
const variant *egdb_variant(const egdb *db) { return &db->v; }

const uint8_t *egdb_table(const egdb *db, int n, int t) {
  if (n < 0 || n > db->max_n || t < 0 || t > (db->split ? 2 : 1)) return NULL;
  return db->lv[n].t[t];
}

int egdb_probe(const egdb *db, const board *b, egdb_value *out) {
  const int P = db->v.pits;
  uint8_t pit[VARIANT_MAX_PITS];
  egdb_normalise(b, &db->v, pit);
  int n = 0;
  for (int i = 0; i < P; i++) n += pit[i];
  if (n > db->max_n) return -1;
  uint64_t r = egdb_rank(pit, P, n);
  const egdb_level *lv = &db->lv[n];
  out->n = n;
  out->lower = lv->t[0][r];
  out->upper = lv->t[1][r];
  out->split2 = db->split ? lv->t[2][r] : -1;
  return 0;
}

int egdb_probe_moves(const egdb *db, const board *b, uint32_t *legal,
                     egdb_value out[VARIANT_MAX_PITS]) {
  egdb_value here;
  if (egdb_probe(db, b, &here)) return -1;
  uint32_t l = board_legal(b, &db->v);
  *legal = l;
  for (uint32_t m = l; m; m &= m - 1) {
    int h = __builtin_ctz(m);
    board c = *b;
    int cap = board_play(&c, &db->v, h);
    egdb_value after;
    if (egdb_probe(db, &c, &after)) return -1; /* cannot happen: no seeds appear */
    out[h].n = here.n;
    out[h].lower = cap + after.n - after.upper;
    out[h].upper = cap + after.n - after.lower;
    out[h].split2 = db->split ? 2 * cap + 2 * after.n - after.split2 : -1;
  }
  return 0;
}
