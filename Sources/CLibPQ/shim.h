#ifndef PAYRPC_CLIBPQ_SHIM_H
#define PAYRPC_CLIBPQ_SHIM_H
/* PostgreSQL's client library (Debian's libpq-dev, libpq 15): the PostgreSQL store's connections,
   pipeline mode and LISTEN/NOTIFY. Only the store's own threads call it. */
#include <libpq-fe.h>
#include <poll.h>

/* The diagnostic fields the store reads (character macros Swift does not import). */
static inline int payrpc_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int payrpc_pq_diag_message(void) { return PG_DIAG_MESSAGE_PRIMARY; }
#endif
