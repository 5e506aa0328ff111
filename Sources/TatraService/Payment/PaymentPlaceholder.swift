import PayRPCServiceKit

/// A placeholder of the payment texts of `tatra-sandbox.json` (`Pay {amount} {currency} to
/// {name}?`) whose value changes from payment to payment; `{currency}` is the sandbox's, spelled
/// into the template when the sandbox data is read.
enum PaymentPlaceholder: String, TemplateSlot {
    case amount, name, phone, reference, paymentId
}
