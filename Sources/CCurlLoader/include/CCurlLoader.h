#ifndef PAYRPC_CCURLLOADER_H
#define PAYRPC_CCURLLOADER_H
/* One HTTP exchange through libcurl, which is loaded with dlopen(3) on the first exchange, not
   linked: a gateway that never calls out (a stdio sandbox, most test suites) never maps libcurl
   and the libraries it depends on (GnuTLS or OpenSSL's libssl, Kerberos, LDAP, nghttp2, ...).
   PayRPCServiceKit's HTTPClient is the only caller. */
#include <stddef.h>

/** What one exchange ended with. */
typedef enum {
    /** An answer came: status and body are set. */
    PAYRPC_HTTP_ANSWERED = 0,
    /** No answer within the timeout. */
    PAYRPC_HTTP_TIMED_OUT = 1,
    /** No answer: the connection failed or dropped; error holds libcurl's reason. */
    PAYRPC_HTTP_UNREACHABLE = 2,
    /** libcurl could not be loaded; error says which names were tried. */
    PAYRPC_HTTP_NO_LIBCURL = 3,
} payrpc_http_outcome;

/** One request: method, URL, headers as "Name: value" strings, an optional body. */
typedef struct {
    const char *method;
    const char *url;
    const char *const *headers;
    size_t header_count;
    const unsigned char *body; /* NULL: no body */
    size_t body_length;
    long timeout_ms;
} payrpc_http_request;

/** The answer: status, and the body in a buffer the caller frees with payrpc_http_free. */
typedef struct {
    long status;
    unsigned char *body;
    size_t body_length;
    char error[256];
} payrpc_http_response;

/** Sends request on a fresh connection, blocking the calling thread until the answer, the
    timeout or a failure. Thread-safe; the first call loads libcurl. */
payrpc_http_outcome payrpc_http_perform(const payrpc_http_request *request, payrpc_http_response *response);

/** Frees the body of a response. */
void payrpc_http_free(payrpc_http_response *response);

#endif
