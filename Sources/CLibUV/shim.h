#ifndef PAYRPC_CLIBUV_SHIM_H
#define PAYRPC_CLIBUV_SHIM_H
#include <uv.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <errno.h>

/* Casts that C does implicitly and Swift does not: every libuv stream kind is a uv_stream_t,
   every handle a uv_handle_t. */
static inline uv_stream_t *payrpc_stream(void *handle) { return (uv_stream_t *)handle; }
static inline uv_handle_t *payrpc_handle(void *handle) { return (uv_handle_t *)handle; }
static inline const struct sockaddr *payrpc_sockaddr(const void *addr) { return (const struct sockaddr *)addr; }

/* Typed views of memory that was allocated with malloc(uv_handle_size(...)). Done in C so that
   Swift never binds the same memory to two types. */
static inline uv_tcp_t *payrpc_tcp(void *handle) { return (uv_tcp_t *)handle; }
static inline uv_pipe_t *payrpc_pipe(void *handle) { return (uv_pipe_t *)handle; }
static inline uv_tty_t *payrpc_tty(void *handle) { return (uv_tty_t *)handle; }
static inline uv_timer_t *payrpc_timer(void *handle) { return (uv_timer_t *)handle; }
static inline uv_async_t *payrpc_async(void *handle) { return (uv_async_t *)handle; }
static inline uv_signal_t *payrpc_signal(void *handle) { return (uv_signal_t *)handle; }
static inline uv_prepare_t *payrpc_prepare(void *handle) { return (uv_prepare_t *)handle; }

/* The owner of a handle (an Unmanaged Swift object), without a function call per access. */
static inline void *payrpc_handle_data(const void *handle) { return ((const uv_handle_t *)handle)->data; }
static inline void payrpc_set_handle_data(void *handle, void *data) { ((uv_handle_t *)handle)->data = data; }
static inline void *payrpc_loop_data(const uv_loop_t *loop) { return loop->data; }
static inline uv_loop_t *payrpc_handle_loop(const void *handle) { return ((const uv_handle_t *)handle)->loop; }

/* One allocation per write: [uv_write_t][payload]. The payload length is kept in req->data. */
static inline uv_write_t *payrpc_write_request_alloc(size_t payload) {
    uv_write_t *req = (uv_write_t *)malloc(sizeof(uv_write_t) + payload);
    if (req) { req->data = (void *)(uintptr_t)payload; }
    return req;
}
static inline char *payrpc_write_request_payload(uv_write_t *req) { return (char *)(req + 1); }
static inline size_t payrpc_write_request_length(const uv_write_t *req) { return (size_t)(uintptr_t)req->data; }
static inline uv_stream_t *payrpc_write_request_stream(const uv_write_t *req) { return req->handle; }
static inline uv_stream_t *payrpc_shutdown_request_stream(const uv_shutdown_t *req) { return req->handle; }

/* Unix socket helpers: whether a path is a socket, and whether something accepts on it. */
static inline int payrpc_path_is_socket(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) { return -1; }
    return S_ISSOCK(st.st_mode) ? 1 : 0;
}
static inline unsigned long payrpc_path_inode(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) { return 0; }
    return (unsigned long)st.st_ino;
}
static inline unsigned int payrpc_path_mode(const char *path) {
    struct stat st;
    if (lstat(path, &st) != 0) { return 0; }
    return (unsigned int)(st.st_mode & 07777);
}
/* 0: something accepted; otherwise the (negative) errno of connect(2). */
static inline int payrpc_unix_probe(const char *path) {
    struct sockaddr_un addr;
    memset(&addr, 0, sizeof addr);
    addr.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof addr.sun_path) { return -ENAMETOOLONG; }
    strcpy(addr.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) { return -errno; }
    int rc = connect(fd, (struct sockaddr *)&addr, sizeof addr);
    int err = rc == 0 ? 0 : -errno;
    close(fd);
    return err;
}
static inline size_t payrpc_unix_path_max(void) { return sizeof(((struct sockaddr_un *)0)->sun_path); }
#endif
