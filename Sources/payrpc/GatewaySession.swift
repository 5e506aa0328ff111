import Foundation
import PayRPCCore
import PayRPCJSON

/// A conversation with a running gateway, one request at a time, for a command that makes
/// several calls in turn (`payrpc calls`): each answer is matched to its request by id (other
/// lines, such as notifications, are skipped) and kept as the text the gateway sent.
final class GatewaySession {
    private let connection: LineConnection
    /// A descriptor that ends every wait when it becomes readable (``StopSignals``), or nil.
    private let interrupt: Int32?
    private var lastID = 0
    /// The id of the request whose answer a wait was interrupted before (``cancelPending()``).
    private var pending: JSONValue?

    /// A session over `connection`; a wait for an answer ends early when `interrupt` becomes readable.
    init(connection: LineConnection, interrupt: Int32?) {
        self.connection = connection
        self.interrupt = interrupt
    }

    /// Calls `method` with `params` and waits up to `seconds` for its answer.
    /// - Returns: the result, on the tape of the line that carried it.
    /// - Throws: ``GatewayFailure``: the gateway answered an error (or no result), closed the
    ///   connection or did not answer in time, or the wait was interrupted.
    func call(_ method: String, _ params: JSONValue?, within seconds: Double) throws(GatewayFailure) -> GatewayAnswer {
        lastID += 1
        let id = JSONValue.int(lastID)
        var request: [JSONValue.Member] = [.init("jsonrpc", "2.0"), .init("id", id), .init("method", .string(method))]
        if let params { request.append(.init("params", params)) }
        do {
            try connection.send(JSONValue.object(request).jsonText)
        } catch {
            throw .closed
        }
        let deadline = Date().addingTimeInterval(seconds)
        pending = nil
        while true {
            switch connection.nextLine(deadline: deadline, interrupt: interrupt) {
            case .end: throw .closed
            case .timedOut: throw .noAnswer(method: method, seconds: seconds)
            case .interrupted:
                pending = id
                throw .interrupted
            case .line(let line):
                // A line that is not JSON, or not the answer to this request, is skipped.
                guard let tape = try? JSONTape(string: line) else { continue }
                let answer: GatewayAnswer? = try tape.withRoot { root throws(GatewayFailure) in
                    guard root.kind == .object, let answerID = root.member("id"), JSONValue(answerID) == id else {
                        return nil
                    }
                    if let error = root.member("error") { throw .answered(method: method, error: Self.error(error)) }
                    guard let result = root.member("result") else {
                        throw .unreadable(method: method, reason: "an answer with neither result nor error")
                    }
                    return GatewayAnswer(tape: tape, result: result)
                }
                if let answer { return answer }
            }
        }
    }

    /// Cancels the request a wait for its answer was interrupted before (`$/cancelRequest`, a
    /// notification), so that the gateway does not keep it running, and its connection open, after
    /// this end has gone (a `sandbox.calls.wait` would run on to its timeout). Nothing when none is.
    func cancelPending() {
        guard let pending else { return }
        self.pending = nil
        var params = CancelParams.decoded(from: #"{"id":null}"#)
        params.id = pending
        let notification = JSONValue.object([
            .init("jsonrpc", "2.0"), .init("method", .string(CancelRequest.name)), .init("params", JSONValue(encoding: params)),
        ])
        try? connection.send(notification.jsonText)
    }

    /// The error object of an answer as the one wire error type (a member missing or of another
    /// type reads as code 0 or an empty message: it is printed, not acted on).
    private static func error(_ element: JSONElement) -> RPCError {
        let code = element.member("code")?.int64.map { Int($0) } ?? 0
        let message = element.member("message")?.string ?? ""
        return RPCError(.init(code), message, data: element.member("data").map { JSONValue($0) })
    }
}

/// A result as the gateway sent it: the element on the tape of its response line (which the
/// answer keeps alive, as an element does not).
struct GatewayAnswer {
    /// The response line, parsed.
    let tape: JSONTape
    /// Its `result`.
    let result: JSONElement
}

/// Why a request to the gateway gave no result.
enum GatewayFailure: Error, CustomStringConvertible {
    /// The gateway answered with an error.
    case answered(method: String, error: RPCError)
    /// The connection ended (the gateway closed it, or it failed).
    case closed
    /// No answer came within the time allowed.
    case noAnswer(method: String, seconds: Double)
    /// SIGINT or SIGTERM arrived while waiting.
    case interrupted
    /// The answer is not what the method answers.
    case unreadable(method: String, reason: String)

    /// What the command prints on stderr: `sandbox.calls.list: error -32006 Call journal off
    /// (this gateway runs with --no-call-journal: it records no calls)`.
    var description: String {
        switch self {
        case .answered(let method, let error):
            var text = "\(method): error \(error.code.rawValue) \(error.message)"
            if let data = error.data {
                text += data["detail"]?.stringValue.map { " (\($0))" } ?? " \(data.jsonText)"
            }
            return text
        case .closed: return "the gateway closed the connection"
        case .noAnswer(let method, let seconds): return "no answer to \(method) within \(seconds) s"
        case .interrupted: return "interrupted"
        case .unreadable(let method, let reason): return "\(method) answered \(reason)"
        }
    }
}
