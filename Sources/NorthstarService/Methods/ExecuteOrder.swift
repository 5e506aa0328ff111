import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Executes a card transaction, in either form of the document: creates an order and captures
/// it at once (`{orderRequest, card}`), or authorizes or captures an existing order by its intent
/// (`{orderID, card}`).
///
/// The create form: the intent must be `CAPTURE` (absent means `CAPTURE`); the order is created
/// and executed, and answers with status `COMPLETED` and the capture. The order-id form: the
/// order must exist on the profile, be neither paid nor expired; `CAPTURE` orders are captured,
/// `AUTHORIZE` orders authorized; an order approved before (`northstar.validate`, or 3-D Secure
/// completed) may be executed without a card. Instead of `card`, a `nonce` from
/// `northstar.tokenizeCard` may be given, once.
///
/// The params are one of two objects (`oneOf`): which form is meant is decided by `orderRequest`
/// or `orderID`, and only that form's violations are reported.
public enum ExecuteOrder: NorthstarMethod {
    public static let name = "northstar.executeOrder"
    public static let traits: MethodTraits = [.mutates]
    public typealias Params = ExecuteOrderParams
    public typealias Result = OrderResponse
    public static let errors = [
        NorthstarErrorKind.instrumentDeclined, .cardExpired, .payerActionRequired, .transactionRefused, .processorError,
        .orderNotFound, .orderAlreadyCaptured, .orderAlreadyAuthorized, .orderExpired, .unprocessable, .nonceInvalid,
        .notConfigured, .backendUnavailable,
    ].map(\.descriptor)
}

/// The two forms of `northstar.executeOrder`.
public enum ExecuteOrderParams: JSONModel, Equatable {
    /// `executeOrder(order: OrderRequest, card: Card)`: create, then capture.
    case create(CreateAndExecuteOrder)
    /// `executeOrder(orderID: String, card: Card)`: authorize or capture an existing order.
    case existing(ExecuteExistingOrder)
}

/// `{orderRequest, card}`: the order to create and capture, and the card (or a nonce) to pay with.
public struct CreateAndExecuteOrder: JSONModel, Equatable {
    /// The order.
    public var orderRequest: OrderRequest
    /// The card; give it or `nonce`.
    public var card: Card?
    /// A nonce from `northstar.tokenizeCard`, in place of `card`.
    public var nonce: CardNonce?
}

/// `{orderID, card}`: the order to authorize or capture, and the card (or a nonce).
public struct ExecuteExistingOrder: JSONModel, Equatable {
    /// The order's id.
    public var orderID: OrdersV2ID
    /// The card; optional for an order approved before.
    public var card: Card?
    /// A nonce from `northstar.tokenizeCard`, in place of `card`.
    public var nonce: CardNonce?
}
