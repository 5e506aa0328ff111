import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Every journal error, with its stable code in -33200…-33299.
public enum JournalErrorKind: String, CaseIterable, Sendable {
    /// A hand-off or callback URL breaks the document's format (a fixed value, a missing or
    /// malformed parameter); `parameter` names it.
    case invalidURL
    /// No entry has that id on the profile.
    case entryNotFound
    /// The payment's fields do not fit its type (account fields for a card payment, an amount
    /// with decimals).
    case invalidPayment

    /// The stable code.
    public var code: RPCError.Code { RPCError.Code(-33200 - (Self.allCases.firstIndex(of: self) ?? 0)) }

    /// The message, unique within journal.
    public var message: String {
        switch self {
        case .invalidURL: "Invalid URL"
        case .entryNotFound: "Entry not found"
        case .invalidPayment: "Invalid payment"
        }
    }

    /// The gRPC status.
    public var status: String { self == .entryNotFound ? "NOT_FOUND" : "INVALID_ARGUMENT" }

    /// The declaration, with sample data for `sandbox.failNext`.
    public var descriptor: RPCErrorDescriptor {
        var writer = JSONWriter()
        JournalErrorData(type: rawValue, status: status, detail: message).encode(to: &writer)
        return RPCErrorDescriptor(code: code, message: message, data: JournalErrorData.self,
                                  sampleData: try? JSONValue(parsing: writer.text))
    }
}

/// A journal error.
public struct JournalError: Error, RPCErrorConvertible, Sendable, Equatable {
    /// Which error.
    public let kind: JournalErrorKind
    /// Its data.
    public let data: JournalErrorData

    /// An error of `kind`.
    public init(_ kind: JournalErrorKind, _ detail: String, parameter: String? = nil, expected: String? = nil,
                found: String? = nil) {
        self.kind = kind
        data = JournalErrorData(type: kind.rawValue, status: kind.status, detail: detail, parameter: parameter,
                                expected: expected, found: found)
    }

    /// The wire error.
    public var rpcError: RPCError {
        var writer = JSONWriter(capacity: 192)
        data.encode(to: &writer)
        return RPCError(kind.code, kind.message, encodedData: writer.bytes)
    }
}
