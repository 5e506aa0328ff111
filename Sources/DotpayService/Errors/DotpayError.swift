import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// A dotpay error: its kind and data, sent as the codec wrote the data.
public struct DotpayError: Error, RPCErrorConvertible, Sendable, Equatable {
    /// Which error.
    public let kind: DotpayErrorKind
    /// Its data.
    public let data: DotpayErrorData

    /// An error of `kind` saying `detail`, with the ids concerned.
    public init(_ kind: DotpayErrorKind, _ detail: String, channelId: Int? = nil, creditCardId: String? = nil,
                paymentId: String? = nil, control: String? = nil) {
        self.kind = kind
        self.data = DotpayErrorData(type: kind.rawValue, status: kind.status, detail: detail, channelId: channelId,
                                    creditCardId: creditCardId, paymentId: paymentId, control: control)
    }

    /// The wire error.
    public var rpcError: RPCError {
        var writer = JSONWriter(capacity: 192)
        data.encode(to: &writer)
        return RPCError(kind.code, kind.message, encodedData: writer.bytes)
    }
}
