import PayRPCCore

/// A method of the payment journal (seed 002) or of its sandbox.
/// - Handlers: JournalHandlers
public protocol JournalMethod: RPCMethod {}
