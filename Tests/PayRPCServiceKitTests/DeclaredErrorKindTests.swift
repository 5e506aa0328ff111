import PayRPCCore
import PayRPCJSON
import PayRPCServiceKit
import Testing

/// Error kinds declared one table line a kind (``DeclaredErrorKind``): what a line says is what the
/// kind, its wire error and its OpenRPC declaration say, and a table that repeats a code or a
/// message is caught.
@Suite struct DeclaredErrorKindTests {
    @Test("bad input first: a table that repeats a code or a message, or leaves the range, is caught")
    func badTables() {
        #expect(
            ClashingKind.codeProblems == [
                "repeatsCode and first share -33900", "repeatsMessage and first share the message First",
                "outOfRange: -33800 is outside test: -33900…-33999",
            ])
    }

    @Test("a kind's code, message, status and fatality are its table line's")
    func readBack() {
        #expect(DeclaredKind.gone.code == -33901 && DeclaredKind.gone.message == "Gone")
        #expect(DeclaredKind.gone.status == .notFound && DeclaredKind.gone.fatal)
        #expect(DeclaredKind.late.code == -33902 && DeclaredKind.late.status == .failedPrecondition)
        #expect(!DeclaredKind.late.fatal && DeclaredKind.late.isFinal)
        #expect(DeclaredKind.codeProblems == [])
    }

    @Test("the wire error and the OpenRPC declaration carry the line's code and message")
    func wireAndDeclaration() {
        let error = ServiceError(DeclaredKind.gone, data: "fatal")
        #expect(error.rpcError == RPCError(-33901, "Gone", encodedData: Array(#""fatal""#.utf8)))
        #expect(DeclaredKind.late.descriptor.code == -33902 && DeclaredKind.late.descriptor.message == "Late")
        #expect(DeclaredKind.late.descriptor.sampleData == .string("NOT fatal"))
    }
}

/// Two kinds, one fatal.
enum DeclaredKind: String, DeclaredErrorKind {
    case gone, late
    static let range = ServiceCodeRange(service: "test", first: -33900)
    var declaration: ServiceErrorDeclaration {
        switch self {
        case .gone: ServiceErrorDeclaration(-33901, "Gone", .notFound, fatal: true)
        case .late: ServiceErrorDeclaration(-33902, "Late", .failedPrecondition)
        }
    }
    var sampleData: String { fatal ? "fatal" : "NOT fatal" }
}

/// A table with a repeated code, a repeated message and a code out of range.
enum ClashingKind: String, DeclaredErrorKind {
    case first, repeatsCode, repeatsMessage, outOfRange
    static let range = ServiceCodeRange(service: "test", first: -33900)
    var declaration: ServiceErrorDeclaration {
        switch self {
        case .first: ServiceErrorDeclaration(-33900, "First", .unknown)
        case .repeatsCode: ServiceErrorDeclaration(-33900, "Repeats code", .unknown)
        case .repeatsMessage: ServiceErrorDeclaration(-33902, "First", .unknown)
        case .outOfRange: ServiceErrorDeclaration(-33800, "Out of range", .unknown)
        }
    }
    var sampleData: String { rawValue }
}
