// Foundation itself (not FoundationEssentials): regular expressions.
import Foundation
import PayRPCCore
import PayRPCJSON

/// Reads what the journal was handed into entries: parses a call's request and answer, names its
/// method, maps params sent by position onto their names, and masks every declared secret
/// (``CallMasking``). Runs when the journal is read (or, on a store gateways share, flushed),
/// never on the request path.
struct CallEntryReader {
    /// The methods served (nil before the router is built: methods read as sent, masked by name).
    let router: Router?
    /// The gateway's mark on its entries' ids (a store gateways share); nil on one gateway.
    let gateway: String?
    /// Where real time stands still (``CallJournalSettings/frozenAt``): every entry's wall time,
    /// and no entry has a duration.
    let frozenAt: Date?

    /// The entries of `item`, in order, each with when it really arrived.
    func entries(_ item: CallJournalItem) -> [ArrivedEntry] {
        let frozen = frozenAt != nil
        var entries: [ArrivedEntry]
        switch item {
        case .chunk(let chunk):
            entries = chunk.recordOffsets.map { offset in
                let record = chunk.record(at: offset, frozen: frozen)
                return ArrivedEntry(entry: call(chunk, record), arrival: record.arrival)
            }
        case .push(let push): entries = [ArrivedEntry(entry: self.push(push), arrival: push.wallAt)]
        case .exchange(let exchange, let id, let sandboxStart):
            entries = [
                ArrivedEntry(entry: self.exchange(exchange, id: id, sandboxStart: sandboxStart), arrival: exchange.started)
            ]
        case .entries(let read): return read
        case .dropped: return []
        }
        if let frozenAt {
            // Real time stands still: only the machine's clocks moved.
            for index in entries.indices {
                entries[index].entry.wallAt = frozenAt
                if entries[index].entry.durationMs != nil { entries[index].entry.durationMs = 0 }
            }
        }
        return entries
    }

    private func marked(_ id: String) -> String { gateway.map { "\($0):\(id)" } ?? id }

    // MARK: Calls

    func call(_ chunk: CallChunk, _ record: CallRecord) -> CallEntry {
        var entry = CallEntry(
            id: marked(CallKey.id(record.key)), kind: .call, at: record.sandboxStart, wallAt: record.wallStart)
        entry.connection = Int(chunk.connection)
        entry.transport = chunk.transport.rawValue
        entry.client = chunk.client
        entry.durationMs = (record.duration * 1e6).rounded() / 1e3
        entry.gateway = gateway
        if record.flags.contains(.replayed) { entry.replayed = true }
        var cut: [String] = []
        var descriptor: MethodDescriptor?
        if record.flags.contains(.refusedLine) {
            cut.append("request")
        } else if record.flags.contains(.requestCut) {
            cut.append("params")
            entry.method = Self.methodName(inPrefix: record.request)
            descriptor = entry.method.flatMap { router?.method(named: $0) }
        } else if let request = Self.parse(record.request) {
            let called = request["method"]?.stringValue
            descriptor = called.flatMap { router?.method(named: $0) }
            entry.method = descriptor?.name ?? called
            if let called, let descriptor, called != descriptor.name { entry.calledAs = called }
            entry.requestId = request["id"]
            if let params = request["params"], params != .null {
                entry.params = CallMasking.params(Self.byName(params, descriptor), of: descriptor)
            }
        }
        if record.flags.contains(.answerCut) {
            cut.append("result")
            if let code = Self.errorCode(inPrefix: record.answer) { entry.error = ["code": .int(code)] }
        } else if !record.answer.isEmpty {
            let answer =
                record.flags.contains(.outcomeMember)
                ? Self.parse([UInt8(ascii: "{")] + record.answer + [UInt8(ascii: "}")]) : Self.parse(record.answer)
            if let result = answer?["result"] { entry.result = CallMasking.result(result, of: descriptor) }
            if var error = answer?["error"] {
                if case .object(var members) = error, let index = members.firstIndex(where: { $0.name == "data" }) {
                    members[index].value = CallMasking.errorData(members[index].value)
                    error = .object(members)
                }
                entry.error = error
            }
        }
        if !cut.isEmpty { entry.cut = cut }
        return entry
    }

    /// Params sent by position, as the names they bind to (the method's fields in order); params
    /// by name as they are.
    static func byName(_ params: JSONValue, _ descriptor: MethodDescriptor?) -> JSONValue {
        guard case .array(let items) = params, let names = descriptor?.fieldOrder else { return params }
        return .object(
            items.enumerated().map { index, item in
                JSONValue.Member(index < names.count ? names[index] : String(index), item)
            })
    }

    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        guard let tape = try? JSONTape(copying: bytes) else { return nil }
        return tape.withRoot { JSONValue($0) }
    }

    /// The method a cut request names in its first bytes, if they hold it.
    static func methodName(inPrefix bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: #""method"\s*:\s*"([^"\\]{1,200})""#, options: .regularExpression) else { return nil }
        let found = text[range]
        guard let colon = found.firstIndex(of: ":") else { return nil }
        let value = found[found.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return String(value.dropFirst().dropLast())
    }

    /// The error code a cut answer starts with, if it is an error.
    static func errorCode(inPrefix bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: #""error"\s*:\s*\{\s*"code"\s*:\s*-?[0-9]+"#, options: .regularExpression) else {
            return nil
        }
        let digits = text[range].split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
        return digits.flatMap { Int($0) }
    }

    // MARK: Notifications and exchanges

    func push(_ push: PushRecord) -> CallEntry {
        var entry = CallEntry(id: marked(push.id), kind: .push, at: push.sandboxAt, wallAt: push.wallAt)
        entry.method = push.name
        entry.params = Self.parse(push.params).map { CallMasking.notification($0, named: push.name, router: router) }
        entry.connection = Int(push.connection)
        entry.transport = push.transport.rawValue
        entry.client = push.client
        entry.causedBy = push.cause.map(marked)
        entry.work = push.work
        entry.gateway = gateway
        return entry
    }

    func exchange(_ exchange: HTTPExchangeRecord, id: String, sandboxStart: Date) -> CallEntry {
        var entry = CallEntry(id: marked(id), kind: .http, at: sandboxStart, wallAt: exchange.started)
        entry.method = exchange.method
        entry.params = exchange.requestBody.map(Self.body)
        entry.result = exchange.responseBody.map(Self.body)
        entry.durationMs = (exchange.duration * 1e6).rounded() / 1e3
        entry.causedBy = exchange.scope.call.map(marked)
        entry.work = exchange.scope.work
        entry.gateway = gateway
        var headers: [String: String] = [:]
        for header in exchange.requestHeaders { headers[header.name] = header.value }
        entry.http = CallHTTPExchange(
            url: exchange.url, status: exchange.status, requestHeaders: headers, attempt: exchange.attempt,
            failure: exchange.failure)
        var cut: [String] = []
        if let body = exchange.requestBody, body.count < exchange.requestBodyBytes { cut.append("params") }
        if let body = exchange.responseBody, body.count < exchange.responseBodyBytes { cut.append("result") }
        if !cut.isEmpty { entry.cut = cut }
        return entry
    }

    /// A body as an entry shows it: JSON as JSON, a form as an object of its fields, else text.
    static func body(_ bytes: [UInt8]) -> JSONValue {
        if let json = parse(bytes) { return json }
        let text = String(decoding: bytes, as: UTF8.self)
        if !text.isEmpty, !text.contains(" "), text.contains("="),
            let components = URLComponents(string: "?" + text), let items = components.queryItems
        {
            return .object(items.map { JSONValue.Member($0.name, .string($0.value ?? "")) })
        }
        return .string(text)
    }
}
