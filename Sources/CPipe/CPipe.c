#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CPipe.h"

int payrpc_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int payrpc_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}
