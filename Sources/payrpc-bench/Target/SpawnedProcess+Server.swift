import PayRPCProcess
#if canImport(Glibc)
import Glibc
#endif

extension SpawnedProcess {
    /// Starts a server for the bench (`payrpc serve --stdio ...` or `payrpc-bench ceiling --stdio`):
    /// `arguments[0]` with the rest, its stdin and stdout on non-blocking pipes (the load loop polls
    /// them), its stderr inherited (server logs go to ours). Blocks the calling thread (the bench's
    /// commands are synchronous).
    /// - Throws: ``BenchError`` when the binary cannot be started.
    static func server(arguments: [String]) throws(BenchError) -> SpawnedProcess {
        guard let executable = arguments.first else { throw BenchError("nothing to spawn") }
        let server: SpawnedProcess
        do {
            server = try startBlocking(executable, arguments: Array(arguments.dropFirst()))
        } catch {
            throw BenchError("cannot spawn \(executable): \(error)")
        }
        for fd in [server.standardInput, server.standardOutput] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return server
    }

    /// Ends a bench's server and reaps it: stops reading its stdout first (answers still queued
    /// are not wanted, and a server blocked on a full pipe could not see its stdin close), then
    /// closes its stdin and escalates to SIGTERM and SIGKILL after 5 s each.
    func stopServer() {
        closeOutput()
        stopBlocking(grace: 5)
    }
}
