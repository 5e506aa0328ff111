/* libcurl's easy interface, reached through dlopen(3) on first use (see CCurlLoader.h). The
   declarations and constants come from <curl/curl.h>; nothing here links against libcurl. */
#include "CCurlLoader.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    int loaded;
    char failure[200];
} curl;

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void load_curl(void) {
    static const char *const names[] = {"libcurl.so.4", "libcurl.so", "libcurl.4.dylib", "libcurl.dylib"};
    /* PAYRPC_LIBCURL names the library file to load instead (as PAYRPC_LIBPQ does for libpq). */
    const char *chosen = getenv("PAYRPC_LIBCURL");
    void *library = NULL;
    if (chosen != NULL && chosen[0] != '\0') {
        library = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
    } else {
        for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
            library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        }
    }
    if (library == NULL) {
        snprintf(curl.failure, sizeof curl.failure, "libcurl could not be loaded (%s%s: %s)",
                 chosen != NULL && chosen[0] != '\0' ? "PAYRPC_LIBCURL=" : "",
                 chosen != NULL && chosen[0] != '\0' ? chosen : "libcurl.so.4", dlerror());
        return;
    }
#define PAYRPC_LOAD(field, symbol)                                                                        \
    *(void **)(&curl.field) = dlsym(library, symbol);                                                     \
    if (curl.field == NULL) {                                                                             \
        snprintf(curl.failure, sizeof curl.failure, "libcurl has no %s", symbol);                         \
        return;                                                                                           \
    }
    PAYRPC_LOAD(global_init, "curl_global_init")
    PAYRPC_LOAD(easy_init, "curl_easy_init")
    PAYRPC_LOAD(easy_setopt, "curl_easy_setopt")
    PAYRPC_LOAD(easy_perform, "curl_easy_perform")
    PAYRPC_LOAD(easy_getinfo, "curl_easy_getinfo")
    PAYRPC_LOAD(easy_cleanup, "curl_easy_cleanup")
    PAYRPC_LOAD(easy_strerror, "curl_easy_strerror")
    PAYRPC_LOAD(slist_append, "curl_slist_append")
    PAYRPC_LOAD(slist_free_all, "curl_slist_free_all")
#undef PAYRPC_LOAD
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(curl.failure, sizeof curl.failure, "curl_global_init failed: %s", curl.easy_strerror(code));
        return;
    }
    curl.loaded = 1;
}

/* The body as it arrives, grown by doubling. */
typedef struct {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
} body_buffer;

static size_t append_body(char *data, size_t size, size_t count, void *context) {
    body_buffer *buffer = context;
    size_t n = size * count;
    if (buffer->length + n > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1024;
        while (capacity < buffer->length + n) capacity *= 2;
        unsigned char *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) return 0; /* libcurl fails the transfer with CURLE_WRITE_ERROR */
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, data, n);
    buffer->length += n;
    return n;
}

payrpc_http_outcome payrpc_http_perform(const payrpc_http_request *request, payrpc_http_response *response) {
    memset(response, 0, sizeof *response);
    pthread_once(&curl_once, load_curl);
    if (!curl.loaded) {
        snprintf(response->error, sizeof response->error, "%s", curl.failure);
        return PAYRPC_HTTP_NO_LIBCURL;
    }
    CURL *easy = curl.easy_init();
    if (easy == NULL) {
        snprintf(response->error, sizeof response->error, "curl_easy_init failed");
        return PAYRPC_HTTP_UNREACHABLE;
    }
    struct curl_slist *headers = NULL;
    for (size_t i = 0; i < request->header_count; i++) headers = curl.slist_append(headers, request->headers[i]);
    /* No "Expect: 100-continue" wait on larger bodies (a backend that ignores it costs a second). */
    headers = curl.slist_append(headers, "Expect:");
    body_buffer body = {0};
    char error[CURL_ERROR_SIZE] = {0};

    curl.easy_setopt(easy, CURLOPT_URL, request->url);
    curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    curl.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(easy, CURLOPT_MAXREDIRS, 10L);
    curl.easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
    curl.easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
    curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
    curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, append_body);
    curl.easy_setopt(easy, CURLOPT_WRITEDATA, &body);
    if (request->body != NULL) {
        curl.easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        curl.easy_setopt(easy, CURLOPT_POSTFIELDS, request->body_length ? (const char *)request->body : "");
    }
    if (strcmp(request->method, "HEAD") == 0) {
        curl.easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else if (strcmp(request->method, request->body != NULL ? "POST" : "GET") != 0) {
        curl.easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request->method);
    }

    CURLcode code = curl.easy_perform(easy);
    payrpc_http_outcome outcome = PAYRPC_HTTP_ANSWERED;
    if (code == CURLE_OK) {
        curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &response->status);
        response->body = body.bytes;
        response->body_length = body.length;
        body.bytes = NULL;
    } else {
        outcome = code == CURLE_OPERATION_TIMEDOUT ? PAYRPC_HTTP_TIMED_OUT : PAYRPC_HTTP_UNREACHABLE;
        snprintf(response->error, sizeof response->error, "%s", error[0] ? error : curl.easy_strerror(code));
    }
    free(body.bytes);
    curl.slist_free_all(headers);
    curl.easy_cleanup(easy);
    return outcome;
}

void payrpc_http_free(payrpc_http_response *response) {
    free(response->body);
    response->body = NULL;
    response->body_length = 0;
}
