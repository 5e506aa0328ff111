/// The per-connection state of the PayKey flow: which flow is running on the connection and the
/// payment awaiting authorization in it. Kept on the connection (``ConnectionSession``), so it is
/// gone when the connection closes.
///
/// Calls outside a flow: `tatra.executePayment` starts an implicit flow (the document invokes
/// `onFlowStart` before any action, but a client that skips it should still be able to pay);
/// `tatra.authorizePayment` outside a flow finds no pending payment and is refused. Every other
/// method works with or without a flow.
struct TatraFlow: Sendable, Equatable {
    /// The flow's number on its connection, from 1 (a restarted flow gets a new number).
    var number: UInt64
    /// Whether `tatra.onFlowStart` started it (false: `tatra.executePayment` did).
    var explicit: Bool
    /// The payment awaiting authorization, if any.
    var pending: PendingPayment?
    /// Whether a `tatra.authorizePayment` of `pending` is running (a second one is refused
    /// until it has answered).
    var authorizing = false
}

/// What a connection keeps: the running flow, and how many flows it has started.
struct TatraConnectionState: Sendable, Equatable {
    /// The key under which the connection keeps it.
    static let connectionKey = "tatra"

    /// The flow running now, if any.
    var flow: TatraFlow?
    /// How many flows were started on the connection.
    var flowsStarted: UInt64 = 0
    /// How many payments were executed on the connection.
    var paymentsExecuted: UInt64 = 0
    /// The error the next bank call of a method fails with (`sandbox.tatra.failNextCall`), by
    /// canonical method name.
    var failNext: [TatraBankCall: FailureKind] = [:]

    /// Keeps `make(serial)` as the flow's payment awaiting authorization, replacing any other
    /// (even one being authorized); starts an implicit flow when none runs.
    mutating func execute(_ make: (UInt64) -> PendingPayment) {
        if flow == nil { _ = startFlow(explicit: false) }
        paymentsExecuted += 1
        flow?.pending = make(paymentsExecuted)
        flow?.authorizing = false
    }

    /// Starts a new flow, forgetting the one before (and its pending payment).
    mutating func startFlow(explicit: Bool) -> TatraFlow {
        flowsStarted += 1
        let flow = TatraFlow(number: flowsStarted, explicit: explicit)
        self.flow = flow
        return flow
    }
}
