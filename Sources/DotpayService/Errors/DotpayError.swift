import PayRPCServiceKit

/// A dotpay error: its kind and data, sent as the codec wrote the data.
public typealias DotpayError = ServiceError<DotpayErrorKind>

extension ServiceError where Kind == DotpayErrorKind {
    /// An error of `kind` saying `detail`, with the ids concerned.
    public init(
        _ kind: DotpayErrorKind, _ detail: String, channelId: Int? = nil, creditCardId: String? = nil,
        paymentId: String? = nil, control: String? = nil
    ) {
        self.init(
            kind,
            data: DotpayErrorData(
                type: kind.rawValue, status: kind.status.rawValue, detail: detail,
                channelId: channelId, creditCardId: creditCardId, paymentId: paymentId,
                control: control))
    }
}
