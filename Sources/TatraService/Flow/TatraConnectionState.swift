/// What a connection keeps: the running flow, and how many flows it has started.
struct TatraConnectionState: Sendable, Equatable {
    /// The flow running now, if any.
    var flow: TatraFlow?
    /// How many flows were started on the connection.
    var flowsStarted: UInt64 = 0
    /// How many payments were executed on the connection.
    var paymentsExecuted: UInt64 = 0

    /// Keeps `make(serial)` as the flow's payment awaiting authorization, replacing any other
    /// (even one being authorized); starts an implicit flow when none runs.
    mutating func execute(_ make: (UInt64) -> PendingPayment) {
        // Changed in place, without `flow == nil` or `flow?.`, which copied the flow through
        // generic value witnesses (docs/benchmarks.md, "Fast paths of the kit").
        if case .none = flow { _ = startFlow(explicit: false) }
        paymentsExecuted += 1
        var payment = make(paymentsExecuted)
        // The payment it replaces is swapped out and dropped as a `PendingPayment`: assigning over
        // the optional dropped it through `Optional`'s generic value witnesses.
        if case .some = flow!.pending {
            swap(&flow!.pending!, &payment)
        } else {
            flow!.pending = payment
        }
        flow!.authorizing = false
    }

    /// Starts a new flow, forgetting the one before (and its pending payment).
    mutating func startFlow(explicit: Bool) -> TatraFlow {
        flowsStarted += 1
        let flow = TatraFlow(number: flowsStarted, explicit: explicit)
        self.flow = flow
        return flow
    }
}
