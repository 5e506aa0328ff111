#ifndef PAYRPC_CPROCESS_H
#define PAYRPC_CPROCESS_H
#include <sys/types.h>

/* The two system calls PayRPCProcess makes for its children that Swift's Glibc module does not
   declare or that need a siginfo_t read field by field. */

/** Fills fds with a pipe's read and write ends, both close-on-exec (pipe2(2) with O_CLOEXEC,
    which needs _GNU_SOURCE); 0, or -1 with errno set.

    PayRPCProcess creates the pipes of every child it spawns with it: a pipe made with pipe(2)
    and marked close-on-exec only afterwards can leak into a child another thread spawns between
    the two calls, and that child then holds the pipe open (a server's stderr sees no end of file
    until the other child exits). */
int payrpc_pipe_cloexec(int fds[2]);

/** Blocks until child `pid` has exited, without reaping it (waitid(2) with WNOWAIT, retried on
    EINTR): *exited is 1 and *value the exit code, or *exited is 0 and *value the signal that
    ended it. 0, or -1 with errno set (ECHILD once another waiter has reaped it). */
int payrpc_wait_exit_unreaped(pid_t pid, int *exited, int *value);

#endif
