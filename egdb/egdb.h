/* egdb.h: endgame databases: perfect-play values of every position with few seeds, built by retrograde analysis. */
#ifndef OWARE_EGDB_H
#define OWARE_EGDB_H

#include <stddef.h>
#include <stdint.h>

#include "core/board.h"
#include "core/variant.h"

/* Largest seed count on the board a database may cover. */
#define EGDB_MAX_SEEDS 32
/* Size of the file header in bytes. */
#define EGDB_HEADER_SIZE 128

/* Error codes (a message in the caller's buffer goes with each). */
typedef enum {
  EGDB_OK = 0,
  EGDB_EUNSUPPORTED = -1, /* a variant the database cannot represent */
  EGDB_EIO = -2,          /* a file cannot be opened, read, written, renamed, mapped */
  EGDB_ECORRUPT = -3,     /* a file is truncated, foreign, or fails its checksum */
  EGDB_EMEMORY = -4,      /* out of memory */
  EGDB_EARG = -5,         /* bad argument (seed count, thread count) */
  EGDB_ECANCEL = -6       /* the progress callback asked to stop */
} egdb_error;

/* ---- The index: compositions of n seeds into P houses ---- */

/* Number of positions with n seeds over `pits` houses: C(n + pits - 1, pits - 1). */
uint64_t egdb_count(int n, int pits);

/* Index of the house counts pit[0..pits-1] (summing to n) among all such
 * counts, in 0 .. egdb_count(n, pits) - 1 (combinatorial number system). */
uint64_t egdb_rank(const uint8_t *pit, int pits, int n);

/* The inverse of egdb_rank. */
void egdb_unrank(uint64_t index, int pits, int n, uint8_t *pit);

/* ---- Variants ---- */

/* Checks that v can be represented (its rules may not depend on the stores:
 * grand_slam=win cannot) and writes its database key into key: the variant
 * string with the switches that do not change any value (repetition,
 * max_plies, seeds per house) reset, e.g. "abapa" or "awari". Returns 0, or
 * EGDB_EUNSUPPORTED with a message. */
int egdb_variant_key(const variant *v, char *key, size_t keylen, char *err, size_t errlen);

/* Whether v's databases carry the split table (cycle = split). */
int egdb_has_split(const variant *v);

/* The file of seed count n: DIR/KEY/nNN.egdb. */
void egdb_path(const char *dir, const char *key, int n, char *buf, size_t len);

/* ---- Building ---- */

/* What the build reports to its progress callback. */
typedef struct egdb_progress {
  int n;              /* seed count of the table being built */
  int max_n;          /* the last one */
  const char *phase;  /* "moves" (fast layout), "iterate", "write", "checked", "done" */
  int sweep;          /* sweeps of the current table so far */
  uint64_t done;      /* positions in the tables finished (built or checked) so far */
  uint64_t total;     /* positions in tables 0..max_n: the work left is total - done (no guess
                         of the sweeps a table still needs) */
  uint64_t positions; /* positions in the tables built (not resumed) so far */
} egdb_progress;

/* Called now and then from the building thread; a non-zero return cancels
 * the build (the tables finished so far stay). */
typedef int (*egdb_progress_fn)(void *ctx, const egdb_progress *p);

/* What a build did. */
typedef struct egdb_build_stats {
  int resumed;          /* tables found complete and kept */
  int built;            /* tables computed */
  uint64_t positions;   /* positions computed */
  int sweeps;           /* value-iteration sweeps over all computed tables */
  double seconds;
  size_t peak_bytes;    /* the largest working memory one table needed */
  int built_lean;       /* of `built`, the tables built with the lean layout */
} egdb_build_stats;

/* How the build keeps a table's positions in memory while it computes it
 * (docs/EGDB.md). The files are the same whatever the layout. */
typedef enum egdb_layout {
  EGDB_LAYOUT_AUTO = 0, /* per table: FAST if it fits in memory, else LEAN */
  EGDB_LAYOUT_FAST,     /* successors and best exits stored: 4H + 5 bytes a position (4H + 8 split) */
  EGDB_LAYOUT_LEAN      /* only the values: 3 bytes a position (5 split), moves played again */
} egdb_layout;

/* Working memory in bytes that table n of v needs with layout FAST or LEAN
 * (the finished smaller tables, mapped from disk, not counted); 0 for FAST
 * when the table has 2^32 positions or more, which it cannot index. */
uint64_t egdb_build_memory(const variant *v, int n, egdb_layout layout);

/* The layout AUTO takes for table n with `avail` bytes of memory free:
 * FAST when its working memory is at most 3/4 of avail, else LEAN. */
egdb_layout egdb_layout_choose(const variant *v, int n, uint64_t avail);

/* The memory free for a build now: MemAvailable of /proc/meminfo, or the
 * physical memory when that cannot be read; 0 if neither is known. */
uint64_t egdb_memory_available(void);

/* Builds the tables n = 0 .. max_n of variant v in dir (made if missing):
 * DIR/KEY/nNN.egdb, each written to a temporary file and renamed. Tables
 * already there and intact are kept (a killed build resumes at the table it
 * was on). threads >= 1 worker threads. Returns 0 or an egdb_error with a
 * message in err. stats may be NULL; progress may be NULL. */
int egdb_build(const variant *v, const char *dir, int max_n, int threads, egdb_progress_fn progress,
               void *ctx, egdb_build_stats *stats, char *err, size_t errlen);

/* egdb_build with the layout chosen (egdb_build: EGDB_LAYOUT_AUTO). AUTO
 * asks egdb_memory_available before each table and falls back to LEAN when
 * FAST's memory cannot be had; FAST on a table it cannot index is EGDB_EARG. */
int egdb_build_layout(const variant *v, const char *dir, int max_n, int threads, egdb_layout layout,
                      egdb_progress_fn progress, void *ctx, egdb_build_stats *stats, char *err,
                      size_t errlen);

/* ---- Reading ---- */

typedef struct egdb egdb;

/* Checks on opening (flags 0): the header, the size and the checksum of
 * every table, which reads the whole files, once a process: a file this
 * process verified before and has not changed since (same device, inode,
 * size, modification time and stored checksum) is not read again.
 * EGDB_VERIFY reads it again all the same; EGDB_HEADER_ONLY checks the
 * header and size only (a flipped byte in a table goes unseen: for
 * measuring what the checksum costs). */
#define EGDB_VERIFY 1
#define EGDB_HEADER_ONLY 2

/* Maps the tables n = 0, 1, ... of v found in dir, stopping at the first
 * missing one (max_n = -1: all; else at most max_n). A table that exists
 * but is truncated, foreign or corrupt is an error (EGDB_ECORRUPT) naming
 * the file and what is wrong. No table at all is EGDB_EIO. */
int egdb_open(const char *dir, const variant *v, int max_n, int flags, egdb **out, char *err,
              size_t errlen);
void egdb_close(egdb *db);

/* The largest seed count covered. */
int egdb_max_seeds(const egdb *db);
/* A fingerprint of the open tables: a checksum of the headers of tables
 * 0 .. egdb_max_seeds (each header holds its table's checksum), so two
 * folders with the same digest hold the same values. */
uint64_t egdb_digest(const egdb *db);
/* A 32-bit hash of a database key (egdb_variant_key), to name a variant's
 * tables where the key itself, with its commas, cannot go. */
uint32_t egdb_key_hash(const char *key);
int egdb_split(const egdb *db);
const variant *egdb_variant(const egdb *db);

/* A value from the side to move's view, seeds of the board it ends with. */
typedef struct egdb_value {
  int n;      /* seeds on the board */
  int lower;  /* endless play scored as none of the seeds left for the mover */
  int upper;  /* endless play scored as all of them */
  int split2; /* half seeds, endless play as an even split; -1 without split table */
} egdb_value;

/* Value of b's position (stores ignored). Returns 0, or -1 when the
 * database does not cover it (more seeds than built). */
int egdb_probe(const egdb *db, const board *b, egdb_value *out);

/* The value of every legal move of b (captured seeds plus what is left
 * after the reply's value): out[m] for each bit m of *legal. Returns 0, or
 * -1 when b is not covered. A position with no legal move has *legal = 0. */
int egdb_probe_moves(const egdb *db, const board *b, uint32_t *legal, egdb_value out[VARIANT_MAX_PITS]);

/* Raw table access for tests and statistics: the bytes of table t (0 lower,
 * 1 upper, 2 split in half seeds) for n seeds, egdb_count(n, pits) long, or
 * NULL when not covered. */
const uint8_t *egdb_table(const egdb *db, int n, int t);

/* The bytes a position of b's mover-normalised houses (mover's row first). */
void egdb_normalise(const board *b, const variant *v, uint8_t *pit);

#endif
