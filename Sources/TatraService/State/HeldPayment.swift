#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// A payment the bank answered with `bankTempOOSError`: kept per profile until
/// `tatra.resubmitPayment` completes it.
struct HeldPayment: Sendable, Equatable {
    /// The id the error carried.
    var paymentId: String
    /// The amount.
    var amount: Amount
    /// The recipient's name.
    var recipientName: String
    /// The phone the payment goes to.
    var phone: String
    /// The reference, if any.
    var reference: String?
    /// How many more resubmissions the bank is out of service for.
    var outOfServiceLeft: Int

    init(paymentId: String, amount: Amount, recipientName: String, phone: String, reference: String?,
         outOfServiceLeft: Int) {
        self.paymentId = paymentId
        self.amount = amount
        self.recipientName = recipientName
        self.phone = phone
        self.reference = reference
        self.outOfServiceLeft = outOfServiceLeft
    }

    /// Reads a stored document; nil when it is not one.
    init?(document: JSONValue) {
        guard let paymentId = document["paymentId"]?.stringValue,
              let amount = document["amount"]?.stringValue.flatMap(Amount.init),
              let name = document["recipientName"]?.stringValue,
              let phone = document["phone"]?.stringValue,
              case .number(let left)? = document["outOfServiceLeft"], let outOfServiceLeft = Int(left)
        else { return nil }
        self.init(paymentId: paymentId, amount: amount, recipientName: name, phone: phone,
                  reference: document["reference"]?.stringValue, outOfServiceLeft: outOfServiceLeft)
    }

    /// The stored document.
    var document: JSONValue {
        var members: [JSONValue.Member] = [
            .init("paymentId", .string(paymentId)),
            .init("amount", .string(amount.description)),
            .init("recipientName", .string(recipientName)),
            .init("phone", .string(phone)),
            .init("outOfServiceLeft", .int(outOfServiceLeft)),
        ]
        if let reference { members.append(.init("reference", .string(reference))) }
        return .object(members)
    }
}
