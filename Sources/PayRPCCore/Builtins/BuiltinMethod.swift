/// A built-in method of every server (`rpc.*`, `$/cancelRequest`): answered on the loop thread.
/// - Handlers: BuiltinHandlers
public protocol BuiltinMethod: RPCMethod {}
