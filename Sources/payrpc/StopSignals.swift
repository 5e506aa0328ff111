#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM as a descriptor that `poll(2)` can wait on beside a socket, so that
/// `payrpc calls --follow`, blocked waiting for the gateway's next answer, ends cleanly on either.
///
/// The self-pipe trick: the handler writes one byte to a pipe (`write(2)` is async-signal-safe)
/// and the pipe's read end becomes readable. Not `signalfd`: it sees only signals blocked in every
/// thread, and the async runtime's threads exist before the command runs.
enum StopSignals {
    /// The pipe's write end, set once before the handlers are installed and only read after.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers (once per process) and returns the descriptor that becomes readable
    /// when SIGINT or SIGTERM arrives; nil when no pipe could be made (the signals then keep
    /// their default action).
    static func install() -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        // A full pipe (signals nobody has read yet) must not block the handler.
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        writeEnd = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            var byte: UInt8 = 1
            _ = write(StopSignals.writeEnd, &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        return ends[0]
    }
}
