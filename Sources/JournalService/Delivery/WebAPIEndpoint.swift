/// The two endpoints of the document's Web API.
enum WebAPIEndpoint: String, Sendable {
    /// `POST /payments/`: every payment, with the callback's parameters.
    case payments = "/payments/"
    /// `POST /journals/`: card and account payments, with the payment id `/payments/` answered.
    case journals = "/journals/"
}
