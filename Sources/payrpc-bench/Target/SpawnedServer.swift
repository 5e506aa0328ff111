#if canImport(Glibc)
import Glibc
#endif

/// A server started by the bench with its stdin and stdout on pipes (`payrpc serve --stdio ...` or
/// `payrpc-bench ceiling --stdio`). It is always reaped: ``stop(grace:)`` closes its stdin (the server
/// drains and exits), then escalates to SIGTERM and SIGKILL, each after a bounded wait.
final class SpawnedServer {
    /// The child's process id.
    let pid: pid_t
    /// Our end of the child's stdin (non-blocking); -1 once closed.
    private(set) var writeFD: Int32
    /// Our end of the child's stdout (non-blocking); -1 once closed.
    private(set) var readFD: Int32
    private var reaped = false
    /// The exit status once reaped.
    private(set) var exitStatus: Int32 = 0

    /// Spawns `arguments[0]` with `arguments[1...]`; stderr is inherited (server logs go to ours).
    /// - Throws: ``BenchError`` when the binary cannot be started.
    init(arguments: [String]) throws(BenchError) {
        guard let executable = arguments.first else { throw BenchError("nothing to spawn") }
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0]); close(toChild[1])
            throw BenchError("pipe: \(String(cString: strerror(errno)))")
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }

        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, &argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1]); close(fromChild[0])
            throw BenchError("cannot spawn \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        writeFD = toChild[1]
        readFD = fromChild[0]
        for fd in [writeFD, readFD] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        stop(grace: 2)
    }

    /// Ends the server: close its stdin and wait up to `grace` seconds for it to exit; then SIGTERM and
    /// another `grace`; then SIGKILL. Always reaps it. Idempotent.
    func stop(grace: Double) {
        if reaped { return }
        if writeFD >= 0 { close(writeFD); writeFD = -1 }
        if waitForExit(seconds: grace) { closeRead(); return }
        kill(pid, SIGTERM)
        if waitForExit(seconds: grace) { closeRead(); return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        exitStatus = status
        closeRead()
    }

    private func closeRead() {
        if readFD >= 0 { close(readFD); readFD = -1 }
    }

    /// Polls `waitpid` for at most `seconds` (5 ms steps); true once reaped.
    private func waitForExit(seconds: Double) -> Bool {
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(seconds)
        var discard = [UInt8](repeating: 0, count: 65536)
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) {
                reaped = true
                exitStatus = status
                return true
            }
            if MonotonicClock.now() >= deadline { return false }
            // Keep its stdout drained so a server flushing its last answers cannot block on a full pipe.
            if readFD >= 0 {
                var entry = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, 5) > 0 {
                    let n = discard.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
                    if n == 0 { closeRead() }
                }
            } else {
                var pause = timespec(tv_sec: 0, tv_nsec: 5_000_000)
                nanosleep(&pause, nil)
            }
        }
    }
}
