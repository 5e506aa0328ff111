import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Starts a PayKey flow on this connection (the user tapped the PayKey button).
///
/// Android `onFlowStart(Context)`, iOS `onFlowStart`. Works as a request (answers null) and as a
/// notification. A flow already running on the connection is ended first: its payment awaiting
/// authorization is forgotten. The Android `Context` is the app's and has no wire form.
public enum OnFlowStart: TatraMethod {
    public static let name = "tatra.onFlowStart"
    public static let traits: MethodTraits = [.runsInline, .mutates, .ordered]
    public typealias Params = NoParams
    public typealias Result = NoResult
}
