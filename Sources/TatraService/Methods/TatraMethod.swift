import PayRPCCore

/// A method of the PayKey flow. The SDK calls them one after another from its completion
/// callbacks (execute, then authorize, then stop the flow), so on one connection they run in
/// arrival order even when a client pipelines them: each declares ``MethodTraits/ordered``.
/// - Handlers: TatraHandlers
public protocol TatraMethod: RPCMethod {}
