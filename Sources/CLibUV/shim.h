#ifndef PAYRPC_CLIBUV_SHIM_H
#define PAYRPC_CLIBUV_SHIM_H
#include <uv.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>

/* Casts that C does implicitly and Swift does not: every libuv stream kind is a uv_stream_t,
   every handle a uv_handle_t. */
static inline uv_stream_t *payrpc_stream(void *handle) { return (uv_stream_t *)handle; }
static inline uv_handle_t *payrpc_handle(void *handle) { return (uv_handle_t *)handle; }
static inline const struct sockaddr *payrpc_sockaddr(const void *addr) { return (const struct sockaddr *)addr; }
#endif
