#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON

/// A service's sandbox data: everything its sandbox answers with and every rule it applies
/// (test cards, magic amounts, texts, limits), read from a JSON file by its generated codec.
///
/// The service ships a default file in its bundle (`<service>-sandbox.json`); `payrpc serve
/// --sandbox-data <service>=FILE` gives another. ``SandboxData/load(_:from:)`` reads either.
public protocol SandboxDataModel: JSONDecodable, Sendable {
    /// The service's name: the `SERVICE` of `--sandbox-data SERVICE=FILE`.
    static var service: String { get }
    /// The file shipped with the service (``SandboxData/shippedFile(_:target:bundle:)``).
    static var bundledFile: URL? { get }
    /// Checks that go beyond the codec (a test card is Luhn-valid, a channel id exists); throws
    /// the first problem with the JSON Pointer of the value. Default: none.
    /// - Throws: ``SandboxDataProblem``.
    func check() throws(SandboxDataProblem)
}

extension SandboxDataModel {
    public func check() throws(SandboxDataProblem) {}
}

/// One problem of a sandbox data file, at a value: the JSON Pointer and what is wrong.
public struct SandboxDataProblem: Error, Sendable, Equatable {
    /// JSON Pointer (RFC 6901) to the value.
    public var pointer: String
    /// What is wrong with it.
    public var message: String

    /// A problem of the value at `pointer`.
    public init(_ pointer: String, _ message: String) {
        self.pointer = pointer
        self.message = message
    }
}
