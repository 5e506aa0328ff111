import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Turns the Caller Application's `opener://open?...` URL into the Payment Application's
/// `linkPayment://open?...#opener://` URL, as the app does when the caller launches it.
///
/// The scheme becomes `linkPayment` and `#opener://` is appended; the query is passed on byte
/// for byte. The fixed values are checked (`Return_Type=4`, `Transaction_Type=1`,
/// `Startup_Mode=1`, `Payment_Service` 010 for a credit card or 060 for an account) and the
/// type's parameters (`Amount`; `Receive_Agency_Code`, `Receive_Agency_Name`, `Consignor_Name`,
/// `Consignor_Code`); a wrong or missing one is `Invalid URL` naming it.
public enum OpenURL: JournalMethod {
    public static let name = "journal.openURL"
    public static let traits: MethodTraits = [.runsInline]

    /// The received URL.
    public struct Params: JSONModel, Equatable {
        /// The `opener://open?...` URL.
        /// - MinLength: 1
        /// - MaxLength: 4096
        /// - Example: "opener://open?Return_Type=4&Payment_Service=010&Transaction_Type=1&Amount=10000&Startup_Mode=1"
        public var url: String
    }

    /// The URL to open.
    public struct Result: JSONModel, Equatable {
        /// The `linkPayment://open?...#opener://` URL.
        public var url: String
        /// The payment type its `Payment_Service` names.
        public var type: PaymentType
    }

    public static let errors = [JournalErrorKind.invalidURL.descriptor]
}
