#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include "CPipe.h"

int payrpc_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
