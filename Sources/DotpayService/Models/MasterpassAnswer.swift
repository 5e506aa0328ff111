import PayRPCJSON
import PayRPCSchema

/// The app's answer to a Masterpass authorization delegate (`DPMasterpassAuthorization`
/// `didCreateAuthorization:andError:` / `didAuthorizeUser:andError:`).
public struct MasterpassAnswer: JSONModel, Equatable {
    /// The `requestId` of the question.
    /// - MinLength: 1
    /// - MaxLength: 64
    public var requestId: String
    /// Whether the authorization succeeded: `false` aborts the payment.
    public var successful: Bool
    /// The `NSError`'s description, when the app gives one.
    /// - MaxLength: 500
    public var error: String?
}
