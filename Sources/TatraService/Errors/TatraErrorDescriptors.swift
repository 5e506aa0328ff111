import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The OpenRPC `errors` entries of the tatra methods: one descriptor per factory error, with the
/// schema of its `data`.
public enum TatraErrorDescriptors {
    /// `generalError`.
    public static let general = descriptor(.general, TatraErrorData.self)
    /// `authRequiredError`.
    public static let authRequired = descriptor(.authRequired, AuthRequiredErrorData.self)
    /// `executePaymentError`.
    public static let executePayment = descriptor(.executePayment, TatraErrorData.self)
    /// `amountLimitError`.
    public static let amountLimit = descriptor(.amountLimit, TatraErrorData.self)
    /// `sameRecipientError`.
    public static let sameRecipient = descriptor(.sameRecipient, TatraErrorData.self)
    /// `serviceUnavaiableError`.
    public static let serviceUnavailable = descriptor(.serviceUnavailable, TatraErrorData.self)
    /// `networkError`.
    public static let network = descriptor(.network, TatraErrorData.self)
    /// `wrongPinError`.
    public static let wrongPin = descriptor(.wrongPin, WrongPinErrorData.self)
    /// `bankTempOOSError`.
    public static let bankTempOOS = descriptor(.bankTempOOS, BankTempOOSErrorData.self)
    /// `missingContactPermissionError`.
    public static let missingContactPermission = descriptor(.missingContactPermission,
                                                            MissingContactPermissionErrorData.self)

    /// The errors every bank call can return in the sandbox (`sandbox.tatra.failNextCall` makes
    /// any of them happen): general, service unavailable, network.
    public static let bankCall: [RPCErrorDescriptor] = [general, serviceUnavailable, network]

    private static func descriptor(_ type: TatraErrorType, _ data: any JSONSchemaProvider.Type) -> RPCErrorDescriptor {
        RPCErrorDescriptor(code: type.code, message: type.message, data: data)
    }
}
