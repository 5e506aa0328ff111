import PayRPCCore

/// A method of the Northstar card client (seed 003) or of its sandbox.
/// - Handlers: NorthstarHandlers
public protocol NorthstarMethod: RPCMethod {}
