#ifndef PAYRPC_CPIPE_H
#define PAYRPC_CPIPE_H
/* pipe2(2) with O_CLOEXEC, which Swift's Glibc module does not declare (it needs _GNU_SOURCE).
   PayRPCProcess creates the pipes of every child it spawns with it: a pipe made with pipe(2)
   and marked close-on-exec only afterwards can leak into a child another thread spawns between
   the two calls, and that child then holds the pipe open (a server's stderr sees no end of file
   until the other child exits). */

/** Fills fds with a pipe's read and write ends, both close-on-exec; 0, or -1 with errno set. */
int payrpc_pipe_cloexec(int fds[2]);

#endif
