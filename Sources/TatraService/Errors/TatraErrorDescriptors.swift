#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// The OpenRPC `errors` entries of the tatra methods: one descriptor per factory error, with the
/// schema of its `data`.
public enum TatraErrorDescriptors {
    /// `generalError`.
    public static let general = descriptor(.general, TatraErrorData.self,
                                           sample: .general(title: "Something went wrong", message: "Please try again later."))
    /// `authRequiredError`.
    public static let authRequired = descriptor(.authRequired, AuthRequiredErrorData.self,
                                                sample: .authRequired(title: "Enter your PIN", showConditions: false))
    /// `executePaymentError`.
    public static let executePayment = descriptor(.executePayment, TatraErrorData.self,
                                                  sample: .executePayment(title: "Payment failed", message: "The payment could not be made."))
    /// `amountLimitError`.
    public static let amountLimit = descriptor(.amountLimit, TatraErrorData.self,
                                               sample: .amountLimit(title: "Amount limit", message: "The amount is outside your limits."))
    /// `sameRecipientError`.
    public static let sameRecipient = descriptor(.sameRecipient, TatraErrorData.self,
                                                 sample: .sameRecipient(title: "Same recipient", message: "You cannot send money to yourself."))
    /// `serviceUnavaiableError`.
    public static let serviceUnavailable = descriptor(.serviceUnavailable, TatraErrorData.self,
                                                      sample: .serviceUnavailable(title: "Service unavailable", message: "The bank's service is down."))
    /// `networkError`.
    public static let network = descriptor(.network, TatraErrorData.self,
                                           sample: .network(title: "No connection", message: "Check your connection and try again."))
    /// `wrongPinError`.
    public static let wrongPin = descriptor(.wrongPin, WrongPinErrorData.self,
                                            sample: .wrongPin(title: "Wrong PIN", applicationBlocked: false))
    /// `bankTempOOSError`.
    public static let bankTempOOS = descriptor(.bankTempOOS, BankTempOOSErrorData.self,
                                               sample: .bankTempOOS(paymentId: "payment-0"))
    /// `missingContactPermissionError`.
    public static let missingContactPermission = descriptor(
        .missingContactPermission, MissingContactPermissionErrorData.self,
        sample: .missingContactPermission(title: "Contacts", subtitle: "Allow access to your contacts.",
                                          uri: URL(string: "app-settings:")!))

    /// The errors every bank call can return in the sandbox (`sandbox.tatra.failNextCall` makes
    /// any of them happen): general, service unavailable, network.
    public static let bankCall: [RPCErrorDescriptor] = [general, serviceUnavailable, network]

    /// A descriptor whose `sampleData` (what `sandbox.failNext` sends when the caller gives no
    /// `data`) is the `data` of `sample`, so it always matches the declared schema.
    private static func descriptor(_ type: TatraErrorType, _ data: any JSONSchemaProvider.Type,
                                   sample: TatraError) -> RPCErrorDescriptor {
        RPCErrorDescriptor(code: type.code, message: type.message, data: data, sampleData: sample.rpcError.data)
    }
}
