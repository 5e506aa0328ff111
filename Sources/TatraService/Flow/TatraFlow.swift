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
