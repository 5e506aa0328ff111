import PayRPCCore

/// A method of the Dotpay SDK (seed 004).
/// - Handlers: DotpayHandlers
public protocol DotpayMethod: RPCMethod {}
