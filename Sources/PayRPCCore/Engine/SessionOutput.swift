import PayRPCJSON

/// Where an answer goes: straight to the connection, or into a batch's array.
package enum Responder {
    case direct
    case batch(BatchCollector)
}

/// Where one request's answer goes, as one value for the functions that pass it on: the raw bytes
/// of its id (nil for a notification; valid while its line is handled, copied by a call that
/// outlives it) and its responder.
package struct AnswerAddress {
    package let id: UnsafeRawBufferPointer?
    package let responder: Responder
}

/// The answers of one batch, gathered until every member has answered.
package final class BatchCollector {
    package var pending = 0
    package var responses: [[UInt8]] = []
}

/// What a call answers, the member after the id: `"result":...` or `"error":{...}`.
package typealias Outcome = [UInt8]

/// A session's answers, written as response lines into one buffer that the session hands to the
/// connection (``RPCSession/flush()``); batches' members are gathered until the batch is complete.
///
/// Loop-thread only, like the session that owns it.
package struct SessionOutput {
    /// The response lines not yet handed to the connection. Inline handlers write their results
    /// straight into it.
    package var writer = JSONWriter(capacity: 4096)

    /// Nothing gathered yet.
    package init() {}

    /// Hands the gathered lines to `connection` and empties the buffer.
    package mutating func flush(to connection: any RPCConnection) {
        guard !writer.bytes.isEmpty else { return }
        writer.bytes.withUnsafeBytes { connection.write($0) }
        if writer.bytes.capacity > 1 << 20 {
            // A burst of large answers grew the buffer (up to the connection's high-water mark
            // and one answer): give the memory back.
            self = SessionOutput()
        } else {
            writer.bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Writes a notification line: `{"jsonrpc":"2.0","method":NAME,"params":PARAMS}`.
    package mutating func writeNotification(_ name: String, params: [UInt8]) {
        writer.raw("{\"jsonrpc\":\"2.0\",\"method\":")
        writer.string(name)
        writer.raw(",\"params\":")
        writer.raw(params)
        writer.raw("}\n")
    }

    /// Writes `{"jsonrpc":"2.0","id":ID` and then `member` (`,` or `,"result":`), in one append.
    /// Always inlined: `member` is then a constant, and its copy a store or two.
    @inline(__always)
    package static func writeResponsePrefix(
        id: UnsafeRawBufferPointer, into writer: inout JSONWriter,
        then member: StaticString = ","
    ) {
        writer.raw("{\"jsonrpc\":\"2.0\",\"id\":", id, member)
    }

    /// Answers a well-formed request that failed before running (nothing for a notification:
    /// the specification never answers those).
    package mutating func reply(_ id: UnsafeRawBufferPointer?, _ responder: Responder, _ error: () -> RPCError) {
        guard let id else {
            if case .batch(let collector) = responder { collect(nil, into: collector) }
            return
        }
        writeError(error(), id: id, to: responder)
    }

    /// Answers with `error`; a nil id is written as `null` (the request's id could not be read).
    package mutating func writeError(_ error: RPCError, id: UnsafeRawBufferPointer?, to responder: Responder) {
        var fragment = JSONWriter(capacity: 96)
        fragment.raw("\"error\":")
        error.encode(to: &fragment)
        if let id {
            writeOutcome(fragment.bytes, id: id, to: responder)
        } else {
            Self.nullID.withUnsafeBytes { writeOutcome(fragment.bytes, id: $0, to: responder) }
        }
    }

    private static let nullID: [UInt8] = Array("null".utf8)

    /// Answers a line over the size limit (which the transport discards).
    package mutating func writeLineTooLong(limit: Int) {
        writeError(
            RPCError(
                .invalidRequest, "Invalid Request: line too long",
                data: [
                    "detail": .string("a line may have at most \(limit) bytes; it was discarded"),
                    "limit": .int(limit),
                ]),
            id: nil, to: .direct)
    }

    /// Writes one response: the prefix with `id`, then `outcome`.
    package mutating func writeOutcome(_ outcome: Outcome, id: UnsafeRawBufferPointer, to responder: Responder) {
        switch responder {
        case .direct:
            Self.writeResponsePrefix(id: id, into: &writer)
            writer.raw(outcome)
            writer.raw("}\n")
        case .batch(let collector):
            var response = JSONWriter(capacity: outcome.count + id.count + 24)
            Self.writeResponsePrefix(id: id, into: &response)
            response.raw(outcome)
            response.endObject()
            collect(response.bytes, into: collector)
        }
    }

    /// Adds one member's answer (nil for a notification) to its batch; writes the batch's array
    /// when the last member is in (nothing at all when every member was a notification).
    package mutating func collect(_ response: [UInt8]?, into collector: BatchCollector) {
        if let response { collector.responses.append(response) }
        collector.pending -= 1
        guard collector.pending == 0, !collector.responses.isEmpty else { return }
        writer.beginArray()
        for response in collector.responses {
            writer.element()
            writer.raw(response)
        }
        writer.raw("]\n")
    }
}
