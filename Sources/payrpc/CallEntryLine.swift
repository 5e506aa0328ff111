import Foundation
import PayRPCCalls
import PayRPCJSON

/// A journal entry as the one readable line `payrpc calls` prints for it, fields two spaces apart:
///
///     10:40:00.000  7.12  call  tatra.executePayment  {"amount":"10.00",...}  -> ok "Pay 10.00 EUR..."  0.31 ms  tcp#7 shop
///     10:40:00.000  7.13  call  tatra.authorizePayment  {"pincode":"***"}  -> error -33001 Wrong PIN  0.20 ms  tcp#7 shop
///     10:40:00.000  p.4  push  tatra.onPinRequired  {...}  to tcp#7 shop  (caused by 7.12)
///     10:40:00.000  h.3  http  POST http://127.0.0.1:8080/payments/ 200 try 1  2.10 ms  (caused by 7.3, delivery)
///
/// The time is the entry's `at` (the profile's sandbox clock), UTC, to the millisecond. JSON is
/// cut to ``jsonLimit`` characters by ``ShortJSON``; text from the entry (a message, a client's
/// name) has its control characters written as spaces, so an entry is always one line.
enum CallEntryLine {
    /// The most characters a params, result or error data value takes in a line.
    static let jsonLimit = 60

    /// The line for `entry` (without the newline).
    static func text(_ entry: CallEntry) -> String {
        var fields = [time(entry.at), oneLine(entry.id), entry.kind.rawValue]
        switch entry.kind {
        case .call: fields += call(entry)
        case .push: fields += push(entry)
        case .http: fields += http(entry)
        }
        return fields.joined(separator: "  ")
    }

    /// The line for an entry as the gateway sent it: read as a ``CallEntry`` (a `null` result or
    /// request id kept, which the model's codec reads as absent), else ``unreadable(_:reason:)``.
    static func text(_ element: JSONElement) -> String {
        var entry: CallEntry
        do {
            entry = try CallEntry(json: element)
        } catch {
            return unreadable(JSONValue(element), reason: "\(error)")
        }
        if element.member("result")?.isNull == true { entry.result = .null }
        if element.member("requestId")?.isNull == true { entry.requestId = .null }
        return text(entry)
    }

    /// The line for an entry this build cannot read as a ``CallEntry`` (a newer gateway's): its
    /// JSON, cut to one line, after why.
    static func unreadable(_ json: JSONValue, reason: String) -> String {
        "(an entry this payrpc cannot read: \(oneLine(reason)))  " + ShortJSON.text(json, limit: 4 * jsonLimit)
    }

    // MARK: Kinds

    private static func call(_ entry: CallEntry) -> [String] {
        var method = entry.method.map(oneLine) ?? "(no method)"
        if let calledAs = entry.calledAs { method += " (as \(oneLine(calledAs)))" }
        var fields = [method]
        if let params = entry.params { fields.append(short(params)) }
        fields.append("-> " + outcome(entry))
        if let duration = entry.durationMs { fields.append(milliseconds(duration)) }
        if let connection = place(entry) { fields.append(connection) }
        if entry.replayed == true { fields.append("replayed") }
        if let cut = entry.cut, !cut.isEmpty { fields.append("cut: " + cut.map(oneLine).joined(separator: ", ")) }
        return fields
    }

    private static func push(_ entry: CallEntry) -> [String] {
        var fields = [entry.method.map(oneLine) ?? "(no method)"]
        if let params = entry.params { fields.append(short(params)) }
        if let connection = place(entry) { fields.append("to " + connection) }
        if let cause = cause(entry) { fields.append(cause) }
        return fields
    }

    private static func http(_ entry: CallEntry) -> [String] {
        var request = [entry.method.map(oneLine) ?? "(no method)"]
        if let http = entry.http {
            request.append(oneLine(http.url))
            if let status = http.status {
                request.append(String(status))
            } else {
                request.append("no answer" + (http.failure.map { " (\(oneLine($0)))" } ?? ""))
            }
            request.append("try \(http.attempt)")
        }
        var fields = [request.joined(separator: " ")]
        if let duration = entry.durationMs { fields.append(milliseconds(duration)) }
        if let cause = cause(entry) { fields.append(cause) }
        return fields
    }

    // MARK: Fields

    /// What the call was answered: `ok RESULT`, `error CODE MESSAGE [DATA]`, or why there is neither.
    private static func outcome(_ entry: CallEntry) -> String {
        if let error = entry.error {
            var text = "error " + (error["code"].map { $0.stringValue ?? $0.jsonText } ?? "?")
            if let message = error["message"] { text += " " + oneLine(message.stringValue ?? message.jsonText) }
            if let data = error["data"] { text += " " + short(data) }
            return text
        }
        if let result = entry.result { return "ok " + short(result) }
        if entry.cut?.contains("result") == true { return "(answer cut)" }
        return entry.requestId == nil ? "no answer (a notification)" : "no answer"
    }

    /// `tcp#7 checkout-app/2.1`: the connection's transport and number, and the client it named.
    private static func place(_ entry: CallEntry) -> String? {
        var parts: [String] = []
        switch (entry.transport, entry.connection) {
        case (let transport?, let connection?): parts.append("\(oneLine(transport))#\(connection)")
        case (let transport?, nil): parts.append(oneLine(transport))
        case (nil, let connection?): parts.append("#\(connection)")
        case (nil, nil): break
        }
        if let client = entry.client { parts.append(oneLine(client)) }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// `(caused by 7.12)`, `(caused by 7.3, delivery)`, `(timer)`: what made a push or an exchange.
    private static func cause(_ entry: CallEntry) -> String? {
        let parts = [entry.causedBy.map { "caused by " + oneLine($0) }, entry.work.map(oneLine)].compactMap { $0 }
        return parts.isEmpty ? nil : "(" + parts.joined(separator: ", ") + ")"
    }

    /// `10:40:00.905`: the time of day in UTC, to the millisecond (rounded down).
    static func time(_ date: Date) -> String {
        let millisecondsPerDay: Int64 = 86_400_000
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let ofDay = (total % millisecondsPerDay + millisecondsPerDay) % millisecondsPerDay
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(ofDay / 3_600_000, 2)):\(padded(ofDay / 60_000 % 60, 2)):\(padded(ofDay / 1000 % 60, 2))."
            + padded(ofDay % 1000, 3)
    }

    /// `0.31 ms`.
    private static func milliseconds(_ value: Double) -> String { String(format: "%.2f ms", value) }

    private static func short(_ value: JSONValue) -> String { ShortJSON.text(value, limit: jsonLimit) }

    /// `text` with every control character (a newline, a tab) written as a space.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 }))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
