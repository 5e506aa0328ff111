import Foundation
import PayRPCJSON

/// The deterministic behaviour of the built-in PBBA sandbox: the device a new profile starts
/// with, the default retrieval period, and the magic amounts that make the merchant backend fail.
///
/// | input | effect |
/// |---|---|
/// | `pbba.submitPaymentRequest` amount `99.91` | `requestGenerationFailed` (-33108), the document's code generation error pop-up |
/// | `pbba.submitPaymentRequest` amount `99.92` | `networkError` (-33109), the network error pop-up |
/// | a new profile | one PBBA-enabled bank app installed (`sandbox.pbba.setBankAppsInstalled` changes it) |
public struct PBBASandbox: Sendable, Equatable {
    /// PBBA-enabled bank apps on a profile's device until `sandbox.pbba.setBankAppsInstalled`.
    public var defaultBankApps: Int
    /// The retrieval period of a new payment request, in seconds, when the call names none.
    public var defaultRetrievalExpiryInterval: Int
    /// The amount for which the backend cannot generate a request.
    public var requestGenerationFailureAmount: Amount
    /// The amount for which the backend cannot be reached.
    public var networkErrorAmount: Amount

    /// - Parameters: see the properties.
    public init(defaultBankApps: Int = 1, defaultRetrievalExpiryInterval: Int = 300,
                requestGenerationFailureAmount: Amount = Amount(units: 9991, scale: 2),
                networkErrorAmount: Amount = Amount(units: 9992, scale: 2)) {
        self.defaultBankApps = defaultBankApps
        self.defaultRetrievalExpiryInterval = defaultRetrievalExpiryInterval
        self.requestGenerationFailureAmount = requestGenerationFailureAmount
        self.networkErrorAmount = networkErrorAmount
    }

    /// The built-in sandbox.
    public static let standard = PBBASandbox()

    /// The sandbox described by a JSON file, or ``standard`` when `file` is nil. Members (all
    /// optional): `defaultBankApps` (integer ≥ 0), `defaultRetrievalExpiryInterval` (integer ≥ 1),
    /// `requestGenerationFailureAmount` and `networkErrorAmount` (decimal strings).
    /// - Throws: ``PBBASandboxError`` naming the file and the member that is wrong.
    public static func sandboxData(from file: URL?) throws -> PBBASandbox {
        guard let file else { return .standard }
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw PBBASandboxError(message: "cannot read \(file.path): \(error.localizedDescription)")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw PBBASandboxError(message: "\(file.path) is not JSON: \(error)")
        }
        guard case .object = value else { throw PBBASandboxError(message: "\(file.path) must hold an object") }
        var sandbox = PBBASandbox.standard
        if let member = value["defaultBankApps"] {
            guard case .number(let raw) = member, let count = Int(raw), count >= 0 else {
                throw PBBASandboxError(message: "\(file.path): defaultBankApps must be an integer ≥ 0")
            }
            sandbox.defaultBankApps = count
        }
        if let member = value["defaultRetrievalExpiryInterval"] {
            guard case .number(let raw) = member, let seconds = Int(raw), seconds >= 1 else {
                throw PBBASandboxError(message: "\(file.path): defaultRetrievalExpiryInterval must be an integer ≥ 1")
            }
            sandbox.defaultRetrievalExpiryInterval = seconds
        }
        for (name, path) in [("requestGenerationFailureAmount", \PBBASandbox.requestGenerationFailureAmount),
                             ("networkErrorAmount", \PBBASandbox.networkErrorAmount)] {
            if let member = value[name] {
                guard let text = member.stringValue, let amount = Amount(text) else {
                    throw PBBASandboxError(message: "\(file.path): \(name) must be a decimal string")
                }
                sandbox[keyPath: path] = amount
            }
        }
        return sandbox
    }
}
