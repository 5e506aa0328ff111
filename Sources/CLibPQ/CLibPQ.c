/* libpq reached through dlopen(3) on the store's first connection (see CLibPQ.h). Each function
   the store calls is defined here with libpq's own signature and forwards to libpq's definition,
   so the Swift side calls PQexec & co. as if libpq were linked. Nothing here links against it. */
#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Every libpq function the store calls: X(return type, name, parameters, arguments). */
#define PAYRPC_PQ_FUNCTIONS(X)                                                                           \
    X(int, PQbackendPID, (const PGconn *conn), (conn))                                                   \
    X(void, PQclear, (PGresult *res), (res))                                                             \
    X(char *, PQcmdTuples, (PGresult *res), (res))                                                       \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand), \
      (keywords, values, expand))                                                                        \
    X(int, PQconsumeInput, (PGconn *conn), (conn))                                                       \
    X(int, PQenterPipelineMode, (PGconn *conn), (conn))                                                  \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn))                                              \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query))                              \
    X(PGresult *, PQexecParams,                                                                          \
      (PGconn *conn, const char *command, int count, const Oid *types, const char *const *values,        \
       const int *lengths, const int *formats, int resultFormat),                                        \
      (conn, command, count, types, values, lengths, formats, resultFormat))                             \
    X(int, PQexitPipelineMode, (PGconn *conn), (conn))                                                   \
    X(void, PQfinish, (PGconn *conn), (conn))                                                            \
    X(int, PQflush, (PGconn *conn), (conn))                                                              \
    X(void, PQfreemem, (void *ptr), (ptr))                                                               \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn))                                                   \
    X(int, PQgetisnull, (const PGresult *res, int row, int field), (res, row, field))                    \
    X(char *, PQgetvalue, (const PGresult *res, int row, int field), (res, row, field))                  \
    X(int, PQnfields, (const PGresult *res), (res))                                                      \
    X(PGnotify *, PQnotifies, (PGconn *conn), (conn))                                                    \
    X(int, PQntuples, (const PGresult *res), (res))                                                      \
    X(int, PQpipelineSync, (PGconn *conn), (conn))                                                       \
    X(PGresult *, PQprepare, (PGconn *conn, const char *name, const char *query, int count, const Oid *types), \
      (conn, name, query, count, types))                                                                 \
    X(char *, PQresultErrorField, (const PGresult *res, int code), (res, code))                          \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res))                                        \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res))                                      \
    X(int, PQsendFlushRequest, (PGconn *conn), (conn))                                                   \
    X(int, PQsendQueryParams,                                                                            \
      (PGconn *conn, const char *command, int count, const Oid *types, const char *const *values,        \
       const int *lengths, const int *formats, int resultFormat),                                        \
      (conn, command, count, types, values, lengths, formats, resultFormat))                             \
    X(int, PQsendQueryPrepared,                                                                          \
      (PGconn *conn, const char *name, int count, const char *const *values, const int *lengths,         \
       const int *formats, int resultFormat),                                                            \
      (conn, name, count, values, lengths, formats, resultFormat))                                       \
    X(int, PQsocket, (const PGconn *conn), (conn))                                                       \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn))

static struct {
#define PAYRPC_PQ_FIELD(type, name, parameters, arguments) type(*name) parameters;
    PAYRPC_PQ_FUNCTIONS(PAYRPC_PQ_FIELD)
#undef PAYRPC_PQ_FIELD
    int loaded;
    char failure[300];
} pq;

static pthread_once_t pq_once = PTHREAD_ONCE_INIT;

static void load_pq(void) {
    static const char *const names[] = {"libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"};
    const char *chosen = getenv("PAYRPC_LIBPQ");
    void *library = NULL;
    if (chosen != NULL && chosen[0] != '\0') {
        library = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) {
            snprintf(pq.failure, sizeof pq.failure, "libpq could not be loaded (PAYRPC_LIBPQ=%s: %s)", chosen,
                     dlerror());
            return;
        }
    } else {
        for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
            library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        }
        if (library == NULL) {
            snprintf(pq.failure, sizeof pq.failure, "libpq could not be loaded (libpq.so.5: %s)", dlerror());
            return;
        }
    }
#define PAYRPC_PQ_LOAD(type, name, parameters, arguments)                                                 \
    *(void **)(&pq.name) = dlsym(library, #name);                                                        \
    if (pq.name == NULL) {                                                                                \
        snprintf(pq.failure, sizeof pq.failure, "the loaded libpq has no %s", #name);                     \
        return;                                                                                           \
    }
    PAYRPC_PQ_FUNCTIONS(PAYRPC_PQ_LOAD)
#undef PAYRPC_PQ_LOAD
    pq.loaded = 1;
}

int payrpc_pq_load(char *error, size_t error_size) {
    pthread_once(&pq_once, load_pq);
    if (!pq.loaded && error != NULL && error_size > 0) snprintf(error, error_size, "%s", pq.failure);
    return pq.loaded;
}

/* A call before a successful payrpc_pq_load is the caller's bug: stop rather than jump to NULL. */
static void require_loaded(const char *name) {
    if (pq.loaded) return;
    fprintf(stderr, "payrpc: %s called before libpq was loaded\n", name);
    abort();
}

#define PAYRPC_PQ_FORWARD(type, name, parameters, arguments)                                              \
    type name parameters {                                                                                \
        require_loaded(#name);                                                                            \
        return pq.name arguments;                                                                         \
    }
PAYRPC_PQ_FUNCTIONS(PAYRPC_PQ_FORWARD)
#undef PAYRPC_PQ_FORWARD
