import PayRPCJSON
import PayRPCSchema

// Orders v2 on the wire: snake_case members (`- Key:`), read and written by generated codecs.
// Answers carry more than payrpc reads (`- OtherMembers: ignored`), and their members are all
// optional: what an answer lacks is judged by the mapping (``OrdersMapping``), not the codec.

/// A purchase unit, both ways.
/// - OtherMembers: ignored
struct WirePurchaseUnit: JSONModel, Equatable {
    /// - Key: reference_id
    var referenceId: String?
    /// The total and its breakdown.
    var amount: WireAmount?
    /// The description.
    var description: String?
    /// - Key: custom_id
    var customId: String?
    /// - Key: invoice_id
    var invoiceId: String?
    /// The captures and authorizations (answers only).
    var payments: WirePayments?
}

/// An amount in a currency (`money`).
/// - OtherMembers: ignored
struct WireMoney: JSONModel, Equatable {
    /// - Key: currency_code
    var currencyCode: String?
    /// A decimal string (kept as text: an answer's odd value drops its unit, not the order).
    var value: String?
}

/// A purchase unit's total, with its breakdown (`amount_with_breakdown`).
/// - OtherMembers: ignored
struct WireAmount: JSONModel, Equatable {
    /// - Key: currency_code
    var currencyCode: String?
    /// A decimal string (kept as text: an answer's odd value drops its unit, not the order).
    var value: String?
    /// How the total is made up.
    var breakdown: WireBreakdown?
}

/// The parts of a total.
struct WireBreakdown: JSONModel, Equatable {
    /// - Key: item_total
    var itemTotal: WireMoney?
    var shipping: WireMoney?
    var handling: WireMoney?
    /// - Key: tax_total
    var taxTotal: WireMoney?
    var insurance: WireMoney?
    /// - Key: shipping_discount
    var shippingDiscount: WireMoney?
    var discount: WireMoney?
}

/// The captures and authorizations of a purchase unit.
/// - OtherMembers: ignored
struct WirePayments: JSONModel, Equatable {
    var captures: [WirePayment]?
    var authorizations: [WirePayment]?
}

/// Payments v2 `POST /v2/payments/authorizations/{id}/capture` (`capture_request`).
struct WireCaptureRequest: JSONModel, Equatable {
    /// Absent: all that remains of the authorization.
    var amount: WireMoney?
    /// - Key: invoice_id
    var invoiceId: String?
    /// - Key: final_capture
    var finalCapture: Bool?
}

/// A capture or an authorization, as Orders v2 lists them in a purchase unit and Payments v2
/// answers a capture.
/// - OtherMembers: ignored
struct WirePayment: JSONModel, Equatable {
    var id: String?
    var status: String?
    var amount: WireMoney?
    /// - Key: final_capture
    var finalCapture: Bool?
    /// - Key: invoice_id
    var invoiceId: String?
    var links: [WireLink]?
    /// - Key: create_time
    var createTime: String?
    /// - Key: update_time
    var updateTime: String?
    /// Until when an authorization can be captured.
    /// - Key: expiration_time
    var expirationTime: String?
    /// - Key: supplementary_data
    var supplementaryData: WireSupplementaryData?
}

/// A payment's `supplementary_data`.
/// - OtherMembers: ignored
struct WireSupplementaryData: JSONModel, Equatable {
    /// - Key: related_ids
    var relatedIds: WireRelatedIds?
}

/// The ids a payment is related to.
/// - OtherMembers: ignored
struct WireRelatedIds: JSONModel, Equatable {
    /// - Key: order_id
    var orderId: String?
    /// - Key: authorization_id
    var authorizationId: String?
}

/// `payment_source`: a card going out, its summary coming back.
/// - OtherMembers: ignored
struct WirePaymentSource: JSONModel, Equatable {
    var card: WireCard?
}

/// A card: the buyer's (number, expiry, security code, name, address) in a request; its summary
/// (last digits, brand, expiry) in an answer.
/// - OtherMembers: ignored
struct WireCard: JSONModel, Equatable {
    /// - Sensitive: last4
    var number: String?
    var expiry: String?
    /// - Key: security_code
    /// - Sensitive
    var securityCode: String?
    var name: String?
    /// - Key: billing_address
    var billingAddress: WireAddress?
    /// - Key: last_digits
    var lastDigits: String?
    var brand: String?
}

/// `address_portable`.
struct WireAddress: JSONModel, Equatable {
    /// - Key: address_line_1
    var addressLine1: String?
    /// - Key: address_line_2
    var addressLine2: String?
    /// - Key: admin_area_1
    var adminArea1: String?
    /// - Key: admin_area_2
    var adminArea2: String?
    /// - Key: postal_code
    var postalCode: String?
    /// - Key: country_code
    var countryCode: String
}

/// An order, both ways: what payrpc sends (`POST /v2/checkout/orders` with the intent, purchase
/// units and card; the body of `/capture`, `/authorize` and `/confirm-payment-source` with the
/// card only) and all an answer gives.
/// - OtherMembers: ignored
struct WireOrder: JSONModel, Equatable {
    var id: String?
    /// `CAPTURE` or `AUTHORIZE`.
    var intent: String?
    var status: String?
    /// - Key: purchase_units
    var purchaseUnits: [WirePurchaseUnit]?
    /// - Key: payment_source
    var paymentSource: WirePaymentSource?
    var links: [WireLink]?
    /// - Key: create_time
    var createTime: String?
    /// - Key: update_time
    var updateTime: String?
    /// - Key: expiration_time
    var expirationTime: String?
}

/// A HATEOAS link.
/// - OtherMembers: ignored
struct WireLink: JSONModel, Equatable {
    var href: String?
    var rel: String?
    var method: String?
}

/// An Orders v2 error answer.
/// - OtherMembers: ignored
struct WireError: JSONModel, Equatable {
    var name: String?
    var message: String?
    /// - Key: debug_id
    var debugId: String?
    var details: [WireErrorDetail]?
    var links: [WireLink]?
}

/// One problem of an error answer.
/// - OtherMembers: ignored
struct WireErrorDetail: JSONModel, Equatable {
    var field: String?
    /// The value, when the API gives one (a string; anything else is left out).
    var value: JSONValue?
    /// `body`, `path` or `query`.
    var location: String?
    var issue: String?
    var description: String?
}

/// An OAuth2 client-credentials token answer, or its error (RFC 6749 5.2: `error`,
/// `error_description`).
/// - OtherMembers: ignored
struct WireToken: JSONModel, Equatable {
    /// - Key: access_token
    /// - Sensitive
    var accessToken: String?
    /// Seconds the token lives.
    /// - Key: expires_in
    var expiresIn: Double?
    /// The error code (`invalid_client`).
    var error: String?
    /// - Key: error_description
    var errorDescription: String?
}
