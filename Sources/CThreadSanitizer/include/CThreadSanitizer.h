#ifndef PAYRPC_CTHREADSANITIZER_H
#define PAYRPC_CTHREADSANITIZER_H
/* Happens-before edges for ThreadSanitizer, for locks it cannot see by itself.

   Synchronization.Mutex on Linux waits in a priority-inheritance futex inside the Swift runtime,
   which is not instrumented: when the lock was contended, TSan sees neither the unlock nor the
   kernel's hand-over, and reports the two holders as a race. PayRPCSync's Lock calls these around
   every critical section. They do something only when this file is compiled with
   -fsanitize=thread (`swift build --sanitize=thread`); otherwise they are empty, and debug builds
   alone call them at all (release builds compile the calls out). */

/** Marks that the caller now holds the lock whose address is `lock`. */
void payrpc_tsan_acquire(const void *lock);

/** Marks that the caller is about to release the lock whose address is `lock`. */
void payrpc_tsan_release(const void *lock);

/** 1 when this library was compiled with ThreadSanitizer, else 0. */
int payrpc_tsan_enabled(void);

#endif
