#include "CThreadSanitizer.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PAYRPC_TSAN 1
#endif
#endif

#ifdef PAYRPC_TSAN
/* The sanitizer runtime's own annotation interface (compiler-rt, tsan_interface.h). */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#endif

void payrpc_tsan_acquire(const void *lock) {
#ifdef PAYRPC_TSAN
    __tsan_acquire((void *)lock);
#else
    (void)lock;
#endif
}

void payrpc_tsan_release(const void *lock) {
#ifdef PAYRPC_TSAN
    __tsan_release((void *)lock);
#else
    (void)lock;
#endif
}

int payrpc_tsan_enabled(void) {
#ifdef PAYRPC_TSAN
    return 1;
#else
    return 0;
#endif
}
