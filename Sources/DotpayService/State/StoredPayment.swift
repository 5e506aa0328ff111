#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// A payment of the history (namespace `dotpay.history`, key its id), with what the sandbox
/// will answer when its status is read again.
struct StoredPayment: JSONModel, Equatable {
    static let namespace = "dotpay.history"
    /// The namespace of the `control` → payment id index (a `control` is unique).
    static let controlNamespace = "dotpay.controls"

    var summary: PaymentSummary
    /// When a `completesLater` payment completes.
    var completesAt: Date?
    /// Whether re-reading its status fails.
    var updateFails: Bool
}
