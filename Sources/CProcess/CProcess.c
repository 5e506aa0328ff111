#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "CProcess.h"

int payrpc_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int payrpc_wait_exit_unreaped(pid_t pid, int *exited, int *value) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int rc;
    do {
        rc = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT);
    } while (rc == -1 && errno == EINTR);
    if (rc != 0) return -1;
    *exited = info.si_code == CLD_EXITED;
    *value = info.si_status;
    return 0;
}
