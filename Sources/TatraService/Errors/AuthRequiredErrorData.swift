import PayRPCJSON
import PayRPCSchema

/// The `data` of `authRequiredError(String title, boolean showConditions)` (iOS
/// `authRequired:(NSNumber*)showConditions title:(NSString*)title`): the user must enter the PIN
/// (`tatra.authorize`) before the balance or the IBAN can be shown.
public struct AuthRequiredErrorData: JSONModel, Equatable {
    /// Always `authRequired`.
    public var type: TatraErrorType
    /// `UNAUTHENTICATED`.
    public var status: TatraErrorStatus
    /// Always false: the user can authorize and go on.
    public var fatal: Bool
    /// The title of the PIN screen (the factory's `title`).
    public var title: String
    /// Whether the PIN screen shows the terms and conditions (the factory's `showConditions`): in
    /// the sandbox, true until the profile has authorized once.
    public var showConditions: Bool
}
