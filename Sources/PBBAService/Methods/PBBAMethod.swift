import PayRPCCore

/// A method of the Pay by Bank app merchant library (seed 001) or of its sandbox.
/// - Handlers: PBBAHandlers
public protocol PBBAMethod: RPCMethod {}
