import ArgumentParser
import Foundation
import PayRPCCalls
import PayRPCCore
import PayRPCJSON
#if canImport(Glibc)
import Glibc
#endif

/// `payrpc calls`: a running gateway's call journal on the command line, once or followed live.
struct CallsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calls",
        abstract: "Print a gateway's call journal (calls, pushes, HTTP exchanges), oldest first.",
        discussion: """
            Connects with --tcp or --unix, prints every entry of the profile's journal (all pages \
            of sandbox.calls.list), one line each, and exits 0. With --follow it then prints new \
            entries as they are journalled (sandbox.calls.wait: no polling) until SIGINT or SIGTERM \
            (exit 0) or until the gateway closes the connection (exit 1).

            A line holds the entry's sandbox time (UTC), its id and its kind, then: for a call its \
            method, params, answer (-> ok RESULT, or -> error CODE MESSAGE DATA), duration and \
            connection (tcp#7 CLIENT); for a push its method, params, connection and what caused it; \
            for an HTTP exchange its method, URL, status, try, duration and cause. JSON longer than \
            60 characters is shortened: the members and items that fit are kept, in order, and \
            ... stands for the rest; a long string keeps its start. --json prints each entry \
            instead exactly as the gateway sent it, one JSON object per line.

            An error answer (no journal: --no-call-journal; not sandbox mode; an older gateway) \
            goes to stderr with its code and message, and the exit code is 1.
            Example: payrpc calls --tcp 127.0.0.1:7070 --kind call --follow
            """
    )

    @Option(help: ArgumentHelp("Connect to TCP HOST:PORT.", valueName: "host:port"))
    var tcp: String?

    @Option(help: ArgumentHelp("Connect to a Unix socket.", valueName: "path"))
    var unix: String?

    @Option(help: ArgumentHelp("File holding the server's token (sent in rpc.hello).", valueName: "file"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("State profile whose journal to print (sent in rpc.hello).", valueName: "name"))
    var profile: String?

    @Option(
        help: ArgumentHelp(
            "Only entries of this method (canonical name or alias; GET, POST, ... for HTTP exchanges).",
            valueName: "name"))
    var method: String?

    @Option(
        help: ArgumentHelp(
            "Only entries of this kind: \(CallEntryKind.allValueStrings.joined(separator: ", ")).", valueName: "kind"))
    var kind: CallEntryKind?

    @Option(help: ArgumentHelp("Stop after this many entries (also with --follow).", valueName: "n"))
    var limit: Int?

    @Flag(help: "After the entries there are, print new ones as they arrive, until SIGINT or SIGTERM.")
    var follow = false

    @Flag(help: "Print each entry as the gateway sent it: one JSON object per line (NDJSON).")
    var json = false

    @Option(help: ArgumentHelp("Seconds to wait for each answer of the gateway.", valueName: "seconds"))
    var timeout: Double = 30

    func validate() throws {
        guard (tcp == nil) != (unix == nil) else { throw ValidationError("choose exactly one of --tcp or --unix") }
        if let tcp { _ = try LineConnection.tcpAddress(tcp) }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    func run() throws {
        let hello = try GatewayHello.params(tokenFile: tokenFile, profile: profile)
        // A write to a gateway that has gone (or to a stdout whose reader has) fails with EPIPE and
        // is reported, instead of SIGPIPE ending the command without a word.
        signal(SIGPIPE, SIG_IGN)
        // Installed before connecting: a signal from now on ends the command cleanly.
        let interrupt = follow ? StopSignals.install() : nil
        let connection: LineConnection
        do {
            connection = try tcp.map(LineConnection.tcp) ?? LineConnection.unix(unix ?? "")
        } catch let failure as ConnectFailure {
            FileHandle.standardError.write(Data("payrpc calls: \(failure)\n".utf8))
            throw ExitCode(1)
        }
        defer { connection.close() }
        let session = GatewaySession(connection: connection, interrupt: interrupt)
        do {
            if let hello { _ = try session.call(Hello.name, hello, within: timeout) }
            var feed = CallJournalFeed(session: session, method: method, kind: kind, timeout: timeout)
            try printEntries(of: &feed)
        } catch GatewayFailure.interrupted {
            session.cancelPending()
            return
        } catch is StandardOutputClosed {
            throw ExitCode(1)
        } catch {
            FileHandle.standardError.write(Data("payrpc calls: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Prints every entry `feed` has and, with `--follow`, every one it gets after, until
    /// `--limit` entries are printed.
    /// - Throws: ``GatewayFailure``, or ``StandardOutputClosed``.
    private func printEntries(of feed: inout CallJournalFeed) throws {
        var printed = 0
        repeat {
            // Every page there is now: follow `next` until a page says there is no more.
            while limit.map({ printed < $0 }) ?? true {
                let page = try feed.page(limit: limit.map { $0 - printed } ?? CallJournalFeed.pageSize)
                try write(page.entries)
                printed += page.entries.count
                guard page.more else { break }
            }
            if let limit, printed >= limit { return }
            // A wait that timed out (false) only means nothing came yet: ask again.
            while follow, try !feed.waitForMore() {}
        } while follow
    }

    /// Writes the entries' lines to stdout in one write, so a reader of a pipe sees each page as
    /// soon as it is read (stdout's buffer would hold it while --follow waits).
    /// - Throws: ``StandardOutputClosed`` when stdout cannot be written (its reader has gone).
    private func write(_ entries: [JSONElement]) throws(StandardOutputClosed) {
        guard !entries.isEmpty else { return }
        var text = ""
        for entry in entries {
            text += json ? entry.rawText : CallEntryLine.text(entry)
            text += "\n"
        }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw StandardOutputClosed() }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Stdout could not be written (a reader such as `head` has gone): the command ends, with nothing
/// more to say.
struct StandardOutputClosed: Error {}
