import Foundation
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// The deterministic behaviour of the built-in PBBA sandbox: the device a new profile starts
/// with, the default retrieval period, and the magic amounts that make the merchant backend fail.
/// Read from `pbba-sandbox.json` (shipped with the service), or another file with
/// `--sandbox-data pbba=FILE`; every member may be left out (the shipped value applies).
///
/// | input | effect |
/// |---|---|
/// | `pbba.submitPaymentRequest` amount `99.91` | `requestGenerationFailed` (-33108), the document's code generation error pop-up |
/// | `pbba.submitPaymentRequest` amount `99.92` | `networkError` (-33109), the network error pop-up |
/// | a new profile | one PBBA-enabled bank app installed (`sandbox.pbba.setBankAppsInstalled` changes it) |
public struct PBBASandbox: JSONModel, SandboxDataModel, Equatable {
    /// PBBA-enabled bank apps on a profile's device until `sandbox.pbba.setBankAppsInstalled`.
    /// - Minimum: 0
    public var defaultBankApps: Int = 1
    /// The retrieval period of a new payment request, in seconds, when the call names none.
    /// - Minimum: 1
    public var defaultRetrievalExpiryInterval: Int = 300
    /// Amounts for which the merchant backend fails.
    public var magicAmounts: [PBBAMagicAmount] = PBBASandbox.standardMagicAmounts

    /// The sandbox of the given values (the shipped ones by default).
    public init(
        defaultBankApps: Int = 1, defaultRetrievalExpiryInterval: Int = 300,
        magicAmounts: [PBBAMagicAmount] = PBBASandbox.standardMagicAmounts
    ) {
        self.defaultBankApps = defaultBankApps
        self.defaultRetrievalExpiryInterval = defaultRetrievalExpiryInterval
        self.magicAmounts = magicAmounts
    }

    /// The shipped magic amounts: `99.91` cannot generate a request, `99.92` cannot reach the backend.
    public static let standardMagicAmounts = [
        PBBAMagicAmount(amount: Amount(units: 9991, scale: 2), outcome: .requestGenerationFailed),
        PBBAMagicAmount(amount: Amount(units: 9992, scale: 2), outcome: .networkError),
    ]

    /// The built-in sandbox: what the shipped file says.
    public static let standard = PBBASandbox()

    public static let service = "pbba"

    /// The file shipped with the service.
    public static var bundledFile: URL? {
        SandboxData.shippedFile("pbba-sandbox.json", target: "PBBAService") { Bundle.module }
    }

    /// Counts are in range; no amount is magic twice.
    public func check() throws(SandboxDataProblem) {
        guard defaultBankApps >= 0 else { throw SandboxDataProblem("/defaultBankApps", "must be 0 or more") }
        guard defaultRetrievalExpiryInterval >= 1 else {
            throw SandboxDataProblem("/defaultRetrievalExpiryInterval", "must be at least 1")
        }
        if let duplicate = MagicTable(magicAmounts, key: \.amount).duplicateKeys.first {
            throw SandboxDataProblem("/magicAmounts", "the amount \(duplicate) is listed twice")
        }
    }
}

/// An amount for which the sandbox's merchant backend fails in a documented way.
public struct PBBAMagicAmount: JSONModel, Equatable {
    /// The amount (compared numerically: `99.91` and `99.910` are the same).
    public var amount: Amount
    /// What happens.
    public var outcome: Outcome

    /// How the backend fails.
    public enum Outcome: String, JSONModel {
        /// `requestGenerationFailed` (-33108): the code generation error pop-up.
        case requestGenerationFailed
        /// `networkError` (-33109): the network error pop-up.
        case networkError
    }

    /// An amount and what it does.
    public init(amount: Amount, outcome: Outcome) {
        self.amount = amount
        self.outcome = outcome
    }
}
