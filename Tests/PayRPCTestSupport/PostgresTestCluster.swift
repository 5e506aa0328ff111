import CPipe
import Foundation
import PayRPCProcess
import PayRPCSync
import Subprocess

/// A throw-away PostgreSQL cluster for the tests: `initdb` in a temporary directory, the server on
/// a free loopback port (and a Unix socket in that directory), no system service. One shared by
/// the test process, started by the first test that asks (``shared()``), and one of its own for
/// each test that stops and starts its server (``own()``); each is stopped with `-m immediate`
/// and removed when the process exits, or, if the process dies first, by a watchdog that waits
/// for it.
///
/// Debian's `postgresql` package (scripts/ensure-deps installs it) puts `initdb`, `pg_ctl` and
/// `postgres` under `/usr/lib/postgresql/VERSION/bin`. `initdb` refuses to run as root, so as root
/// the cluster belongs to the `postgres` user (`runuser`). `fsync` is off: the tests kill
/// processes, not the machine, and a killed server keeps what the kernel has.
public final class PostgresTestCluster: Sendable {
    /// The cluster's directory (data in `data/`, the socket in it too).
    public let directory: URL
    /// The server's TCP port on 127.0.0.1.
    public let port: Int
    /// The folder of the server's programs.
    public let binaries: URL
    private let databases = Lock(0)

    private static let instance = Lock<Result<PostgresTestCluster, PostgresTestClusterError>?>(nil)

    /// The process's cluster, started on first use.
    ///
    /// Started on a thread of its own, as every program of the cluster's is run (``offPool(_:)``):
    /// waiting for a child blocks, and a blocked thread of the cooperative pool (two on this
    /// machine) can starve the very task that reaps the child.
    /// - Throws: ``PostgresTestClusterError`` when PostgreSQL is not installed or does not start.
    public static func shared() async throws -> PostgresTestCluster {
        try await offPool { () throws(PostgresTestClusterError) in try sharedBlocking() }
    }

    /// A new cluster for one test alone, which may ``stop()`` and ``start()`` its server without
    /// disturbing the tests on the shared one.
    /// - Throws: ``PostgresTestClusterError`` when PostgreSQL is not installed or does not start.
    public static func own() async throws -> PostgresTestCluster {
        try await offPool { () throws(PostgresTestClusterError) in try PostgresTestCluster() }
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`: its connections are cut, nothing is
    /// flushed first); the cluster's directory stays for ``start()``.
    /// - Throws: ``PostgresTestClusterError`` when `pg_ctl` fails.
    public func stop() async throws {
        let binaries = self.binaries, data = directory.appendingPathComponent("data").path
        try await Self.offPool { () throws(PostgresTestClusterError) in
            try Self.run(binaries, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        }
    }

    /// Starts the server again on its port (after ``stop()``) and returns once it takes connections.
    /// - Throws: ``PostgresTestClusterError`` when `pg_ctl` fails.
    public func start() async throws {
        let binaries = self.binaries, directory = self.directory, port = self.port
        try await Self.offPool { () throws(PostgresTestClusterError) in try Self.startServer(binaries, directory, port) }
    }

    /// Runs the blocking `body` on a thread of its own (not the cooperative pool's).
    @discardableResult
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws(PostgresTestClusterError) -> T) async throws -> T {
        guard let result = await EventWait.blocking(timeout: 300, { Result(catching: body) }) else {
            throw PostgresTestClusterError("PostgreSQL's programs did not finish within 300 s")
        }
        return try result.get()
    }

    private static func sharedBlocking() throws(PostgresTestClusterError) -> PostgresTestCluster {
        try instance.withLock { instance throws(PostgresTestClusterError) in
            if instance == nil {
                instance = Result(catching: { () throws(PostgresTestClusterError) in try PostgresTestCluster() })
            }
            return try instance!.get()
        }
    }

    private init() throws(PostgresTestClusterError) {
        guard let binaries = Self.findBinaries() else {
            throw PostgresTestClusterError(
                "PostgreSQL's server programs are not installed (scripts/ensure-deps installs Debian's postgresql)")
        }
        self.binaries = binaries
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-pg-\(UUID().uuidString.prefix(8))")
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if getuid() == 0 {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: directory.path)
            }
        } catch {
            throw PostgresTestClusterError("cannot make \(directory.path): \(error)")
        }
        let data = directory.appendingPathComponent("data").path
        try Self.run(binaries, "initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--no-locale"])
        // The port was free when asked; another program (another cluster of this process
        // among them) may bind it first: then the server cannot, and another port is tried.
        var port = FreePort.loopback()
        for attempt in 1... {
            do {
                try Self.startServer(binaries, directory, port)
                break
            } catch  where attempt < 3 && error.description.contains("could not bind") {
                port = FreePort.loopback()
            }
        }
        self.port = port
        Self.watch(self)
        let stop = StopAtExit(binaries: binaries, directory: directory)
        let first = StopAtExit.all.withLock { all in
            all.append(stop)
            return all.count == 1
        }
        if first { atexit { for stop in StopAtExit.all.withLock({ $0 }) { stop.stop() } } }
    }

    /// Starts the server of the cluster in `directory` on `port` (`pg_ctl start -w`).
    /// - Throws: ``PostgresTestClusterError`` with the server's log when it does not start.
    private static func startServer(_ binaries: URL, _ directory: URL, _ port: Int) throws(PostgresTestClusterError) {
        let data = directory.appendingPathComponent("data").path
        let options = "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        let log = directory.appendingPathComponent("log")
        do {
            try run(binaries, "pg_ctl", ["-D", data, "-o", options, "-l", log.path, "-w", "start"])
        } catch {
            let text = String(decoding: FileManager.default.contents(atPath: log.path) ?? Data(), as: UTF8.self)
            throw PostgresTestClusterError("\(error.description); the server's log: \(text.suffix(2000))")
        }
    }

    /// A new, empty database; returns its `postgresql://` URL.
    /// - Throws: ``PostgresTestClusterError`` when `createdb` fails.
    public func createDatabase(prefix: String = "payrpc_test") async throws -> String {
        let number = databases.withLock { count -> Int in
            count += 1
            return count
        }
        let name = "\(prefix)_\(getpid())_\(number)"
        let binaries = self.binaries, port = self.port
        try await Self.offPool { () throws(PostgresTestClusterError) in
            try Self.run(binaries, "createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name])
        }
        return url(database: name)
    }

    /// The URL of `database` on this cluster.
    public func url(database: String) -> String {
        "postgresql://postgres@127.0.0.1:\(port)/\(database)"
    }

    /// Runs `sql` as the superuser in `database` with `psql` and returns its output (unaligned,
    /// tuples only).
    /// - Throws: ``PostgresTestClusterError`` when it fails.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") async throws -> String {
        let binaries = self.binaries, port = self.port
        return try await Self.offPool { () throws(PostgresTestClusterError) in
            try Self.run(
                binaries, "psql",
                [
                    "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database,
                    "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql,
                ], asOwner: false)
        }
    }

    /// Drops `database`, ending its connections first.
    public func dropDatabase(_ database: String) async {
        _ = try? await psql("DROP DATABASE IF EXISTS \"\(database)\" WITH (FORCE)")
    }

    // MARK: Helpers

    /// The newest `/usr/lib/postgresql/VERSION/bin` holding `initdb`.
    static func findBinaries() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap { Int($0) }.sorted(by: >).map { root.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }

    /// Runs one of PostgreSQL's programs (as `postgres` when root and `asOwner`); returns its output.
    @discardableResult
    static func run(_ binaries: URL, _ program: String, _ arguments: [String], asOwner: Bool = true)
        throws(PostgresTestClusterError)
        -> String
    {
        let path = binaries.appendingPathComponent(program).path
        let (executable, fullArguments) =
            getuid() == 0 && asOwner
            ? ("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments) : (path, arguments)
        // The output goes to a file, not a pipe: `pg_ctl start` leaves the server running with
        // the descriptors it inherited, so a pipe would never reach its end.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("payrpc-pg-output-\(UUID().uuidString)")
            .path
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw PostgresTestClusterError("cannot make \(outputPath)") }
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status: TerminationStatus?
        do {
            let child = try SpawnedProcess.startBlocking(
                executable, arguments: fullArguments, workingDirectory: "/tmp",
                standardInput: .discard, standardOutput: .descriptor(output), standardError: .descriptor(output))
            close(output)
            status = child.waitForExitBlocking(timeout: 120)
        } catch {
            close(output)
            throw PostgresTestClusterError("cannot run \(program): \(error)")
        }
        let text = String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        guard let status, status.code == 0, case .exited = status else {
            throw PostgresTestClusterError(
                "\(program) \(arguments.joined(separator: " ")) failed (\(status.map { "\($0)" } ?? "still running after 120 s")): \(text)"
            )
        }
        return text
    }

    /// A watchdog that stops the server and removes the directory when this process is gone,
    /// however it ended (`tail --pid` waits for it).
    private static func watch(_ cluster: PostgresTestCluster) {
        let data = cluster.directory.appendingPathComponent("data").path
        let pgctl = cluster.binaries.appendingPathComponent("pg_ctl").path
        let stop = getuid() == 0 ? "runuser -u postgres -- \(pgctl)" : pgctl
        let script =
            "tail --pid=\(getpid()) -f /dev/null; \(stop) -D '\(data)' -m immediate stop >/dev/null 2>&1; rm -rf '\(cluster.directory.path)'"
        // Kept for the life of the process (a dropped SpawnedProcess kills its child).
        let started = try? SpawnedProcess.startBlocking(
            "/usr/bin/setsid", arguments: ["/bin/sh", "-c", script],
            standardInput: .discard, standardOutput: .discard, standardError: .discard)
        if let started { watchdogs.withLock { $0.append(started) } }
    }

    private static let watchdogs = Lock<[SpawnedProcess]>([])
}

/// Stops a cluster when the test process exits normally.
private struct StopAtExit: Sendable {
    /// One for every cluster the process started.
    static let all = Lock<[StopAtExit]>([])
    let binaries: URL
    let directory: URL

    /// Sends the server SIGQUIT (PostgreSQL's immediate shutdown) by the pid in its
    /// `postmaster.pid`: no child process at exit.
    func stop() {
        let file = directory.appendingPathComponent("data/postmaster.pid").path
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
            let line = text.split(separator: "\n").first, let pid = pid_t(line)
        else {
            // The server is not running (a test stopped it): only the directory is left.
            try? FileManager.default.removeItem(at: directory)
            return
        }
        // A descriptor that becomes readable when the server ends (not this process's child, so no
        // waitpid): taken before the signal, so its end cannot be missed.
        let ended = payrpc_pidfd_open(pid)
        kill(pid, SIGQUIT)
        // The directory goes once the server has (it writes into it until it ends): at most 10 s.
        if ended >= 0 {
            var descriptor = pollfd(fd: ended, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 10_000)
            close(ended)
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Why the test cluster could not be had.
public struct PostgresTestClusterError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
