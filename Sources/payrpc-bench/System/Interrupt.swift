#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Set by SIGINT/SIGTERM; every loop of the bench checks it and winds down (reporting what it has and
/// reaping a spawned server) instead of dying with a child left behind.
let interruptRequested = Atomic<Bool>(false)

/// Process-wide signal set-up of the bench.
enum Interrupt {
    /// Ignores SIGPIPE (a closed socket or pipe is an `EPIPE` we count) and turns SIGINT/SIGTERM into
    /// ``interruptRequested``.
    static func install() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT) { _ in interruptRequested.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in interruptRequested.store(true, ordering: .relaxed) }
    }

    /// Whether SIGINT or SIGTERM arrived.
    static var requested: Bool { interruptRequested.load(ordering: .relaxed) }
}
