#ifndef PAYRPC_CPIPE_H
#define PAYRPC_CPIPE_H
/* The process descriptors Swift's Glibc module does not declare (they need _GNU_SOURCE, or a
   variadic syscall(2) that Swift cannot call).

   pipe2(2) with O_CLOEXEC: PayRPCProcess creates the pipes of every child it spawns with it: a
   pipe made with pipe(2) and marked close-on-exec only afterwards can leak into a child another
   thread spawns between the two calls, and that child then holds the pipe open (a server's
   stderr sees no end of file until the other child exits).

   pidfd_open(2): a descriptor that becomes readable when a process ends, for a process that is
   not this one's child (waitpid cannot wait for it): the tests' PostgreSQL server. */

/** Fills fds with a pipe's read and write ends, both close-on-exec; 0, or -1 with errno set. */
int payrpc_pipe_cloexec(int fds[2]);

/** A close-on-exec descriptor of process `pid`, readable once it has ended; -1 with errno set. */
int payrpc_pidfd_open(int pid);

#endif
