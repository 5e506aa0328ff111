import PayRPCJSON
import PayRPCSchema

/// A tatra method that calls the bank, and so can fail with `generalError`,
/// `serviceUnavaiableError` or `networkError`: what `sandbox.tatra.failNextCall` can make fail.
public enum TatraBankCall: String, JSONModel, CaseIterable {
    /// `tatra.fetchSetupData`.
    case fetchSetupData = "tatra.fetchSetupData"
    /// `tatra.fetchTopContacts`.
    case fetchTopContacts = "tatra.fetchTopContacts"
    /// `tatra.fetchContacts`.
    case fetchContacts = "tatra.fetchContacts"
    /// `tatra.executePayment`.
    case executePayment = "tatra.executePayment"
    /// `tatra.authorizePayment`.
    case authorizePayment = "tatra.authorizePayment"
    /// `tatra.resubmitPayment`.
    case resubmitPayment = "tatra.resubmitPayment"
    /// `tatra.fetchBalance`.
    case fetchBalance = "tatra.fetchBalance"
    /// `tatra.getIban`.
    case getIban = "tatra.getIban"
    /// `tatra.authorize`.
    case authorize = "tatra.authorize"
}
