import PayRPCCore
import PayRPCJSON

/// How a store failure reaches a caller: the one boundary where ``StoreError`` becomes a wire error.
extension StoreError: RPCErrorConvertible {
    /// ``StoreError/Code/full`` is ``PayRPCCore/RPCError/Code/storeFull`` (-32008) with
    /// `data: {type: "storeFull", detail}`, so a client can tell a full store from a bug and retry
    /// later; ``StoreError/Code/unavailable`` and a ``StoreError/Code/conflict`` that outlasted its
    /// retries are ``PayRPCCore/RPCError/Code/storeUnavailable`` (-32009) with
    /// `data: {type: "storeUnavailable", retryable: true, detail}`; every other failure is an
    /// internal error (-32603) whose cause the engine logs. Neither a full store nor an unavailable
    /// one is a call's final answer (``PayRPCCore/RPCError/isFinal``): the write was not made, so a
    /// repeat with the same idempotency key runs anew.
    public var rpcError: RPCError {
        switch code {
        case .full:
            var error = RPCError(
                .storeFull, "Store full",
                data: [
                    "type": "storeFull",
                    "detail":
                        "the store reached its size limit (--store-max-bytes) or the disk is full: the write that did not fit was not made; reads still work, and writes succeed again once space is freed or the limit is raised",
                ])
            error.isFinal = false
            return error
        case .unavailable, .conflict:
            var error = RPCError(
                .storeUnavailable, "Store unavailable",
                data: [
                    "type": "storeUnavailable",
                    "retryable": true,
                    "detail": code == .conflict
                        ? "too many concurrent changes of the same state: the call was not done; call again"
                        : "the store's database cannot be reached: the call was not done (or, if the connection broke while it committed, may have been); call again, with the same _meta.idempotencyKey to be sure it runs once"
                        ,
                ])
            error.isFinal = false
            return error
        default:
            return .internalError
        }
    }
}
