#ifndef PAYRPC_CLIBPQ_H
#define PAYRPC_CLIBPQ_H
/* PostgreSQL's client library (Debian's libpq-dev, libpq 15): the PostgreSQL store's connections,
   pipeline mode and LISTEN/NOTIFY. Only the store's own threads call it.

   libpq is loaded with dlopen(3) when the store first connects (`serve --store postgresql://…`),
   not linked: a gateway on SQLite never maps it nor what it brings (Kerberos, LDAP, GnuTLS).
   The declarations come from <libpq-fe.h>; CLibPQ.c defines the functions the store calls, each
   forwarding to libpq's own. Builds against libpq-dev; runs with libpq.so.5 (libpq5). */
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
#include <poll.h>
#include <stddef.h>

/** Loads libpq once (later calls return the first call's outcome): 1 when it is loaded, else 0
    with the reason in `error` (which library names were tried and what dlopen said). The
    environment variable PAYRPC_LIBPQ names the library to load instead of libpq.so.5. Call it
    before any other function here. */
int payrpc_pq_load(char *error, size_t error_size);

/* The diagnostic fields the store reads (character macros Swift does not import). */
static inline int payrpc_pq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
static inline int payrpc_pq_diag_message(void) { return PG_DIAG_MESSAGE_PRIMARY; }
#endif
