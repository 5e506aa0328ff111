import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Ends the PayKey flow on this connection (the user exited or closed the keyboard).
///
/// Android `onFlowStop(Context)`, iOS `onFlowStop`. Works as a request (answers null) and as a
/// notification. Forgets the flow's state, including a payment awaiting authorization; without a
/// running flow it does nothing.
public enum OnFlowStop: TatraMethod {
    public static let name = "tatra.onFlowStop"
    public static let traits: MethodTraits = [.runsInline, .mutates, .ordered]
    public typealias Params = NoParams
    public typealias Result = NoResult
}
