#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// An amount that makes the sandbox answer a payment with a given error, the way payment providers
/// publish test card numbers. Listed in `tatra-sandbox.json` under `magicAmounts`.
public struct MagicAmount: JSONModel, Equatable {
    /// What a payment of a magic amount does.
    public enum Outcome: String, JSONModel {
        /// `tatra.executePayment` fails with `generalError`.
        case general
        /// `tatra.executePayment` fails with `serviceUnavaiableError`.
        case serviceUnavailable
        /// `tatra.executePayment` fails with `networkError`.
        case network
        /// `tatra.executePayment` fails with `executePaymentError` (the bank declines).
        case executePayment
        /// `tatra.authorizePayment` (right PIN) fails with `bankTempOOSError`, and so does each
        /// `tatra.resubmitPayment` until the bank has been out of service `outOfServiceTimes` times.
        case bankTempOOS
    }

    /// The amount.
    public var amount: Amount
    /// What it does.
    public var outcome: Outcome
    /// For `bankTempOOS`: how many times in a row the bank is out of service (at least 1).
    public var outOfServiceTimes: Int = 1
}
