/* run_lock.c: the run lock (table run_locks): one process plays a run at a time. */
#include "store/store.h"
#include "core/error.h"
#include "store/store_sql.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* Whether pid is a live process on this machine. */
static int pid_alive(long long pid) {
  if (pid <= 0 || pid != (long long)(pid_t)pid) return 0;
  return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

static void host_name(char *buf, size_t len) {
  if (gethostname(buf, len) != 0) snprintf(buf, len, "?");
  buf[len - 1] = 0;
}

int store_run_lock(store *s, int64_t id, char *err, size_t errlen) {
  char host[256], since[32];
  long long me = (long long)getpid();
  host_name(host, sizeof host);
  store_sql_now(since, sizeof since);
  sqlite3_stmt *st = NULL;
  if (store_sql_begin(s, err, errlen)) return -1;
  if (store_sql_prepare(s->db, "SELECT pid, host, since FROM run_locks WHERE run_id = ?1", 0, &st, err,
              errlen))
    goto fail;
  int rc = sqlite3_bind_int64(st, 1, id);
  if (!rc) rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    long long pid = sqlite3_column_int64(st, 0);
    const char *h = (const char *)sqlite3_column_text(st, 1);
    const char *t = (const char *)sqlite3_column_text(st, 2);
    int here = h && !strcmp(h, host);
    if (!(here && (pid == me || !pid_alive(pid)))) {
      error_set(err, errlen, "store: run %" PRId64 " is being played by pid %lld on host %s since %s%s", id,
           pid, h ? h : "?", t ? t : "?",
           here ? "" : " (another host: its lock is released only by that process)");
      sqlite3_finalize(st);
      store_sql_rollback(s);
      return 1;
    }
  } else if (rc != SQLITE_DONE) {
    store_sql_fail(s->db, err, errlen, "cannot read the run lock");
    goto fail;
  }
  sqlite3_finalize(st);
  if (store_sql_prepare(s->db,
              "INSERT OR REPLACE INTO run_locks (run_id, pid, host, since) VALUES (?1, ?2, ?3, ?4)",
              0, &st, err, errlen))
    goto fail;
  if (sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int64(st, 2, me) ||
      store_sql_bind_string(st, 3, host) || store_sql_bind_string(st, 4, since) ||
      sqlite3_step(st) != SQLITE_DONE) {
    if (sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_FOREIGNKEY)
      error_set(err, errlen, "store: no run %" PRId64, id);
    else
      store_sql_fail(s->db, err, errlen, "cannot take the run lock");
    goto fail;
  }
  sqlite3_finalize(st);
  st = NULL;
  if (store_sql_commit(s, err, errlen, "cannot commit the run lock")) goto fail;
  return 0;
fail:
  sqlite3_finalize(st);
  store_sql_rollback(s);
  return -1;
}

int store_run_unlock(store *s, int64_t id, char *err, size_t errlen) {
  char host[256];
  host_name(host, sizeof host);
  sqlite3_stmt *st;
  if (store_sql_prepare(s->db, "DELETE FROM run_locks WHERE run_id = ?1 AND pid = ?2 AND host = ?3", 0, &st,
              err, errlen))
    return -1;
  int ret = 0;
  if (sqlite3_bind_int64(st, 1, id) || sqlite3_bind_int64(st, 2, (long long)getpid()) ||
      store_sql_bind_string(st, 3, host) || sqlite3_step(st) != SQLITE_DONE)
    ret = store_sql_fail(s->db, err, errlen, "cannot release the run lock");
  sqlite3_finalize(st);
  return ret;
}

