/// The document's rules for the hand-off parameters: the fixed values, and what each payment
/// type carries.
enum HandoffRules {
    /// The fixed parameters and their values.
    static let fixed: [(String, String)] = [("Return_Type", "4"), ("Transaction_Type", "1"), ("Startup_Mode", "1")]

    /// The checked parameters of a hand-off URL: the payment type its `Payment_Service` names and
    /// the type's own parameters, each present and well formed.
    /// - Throws: ``JournalError`` `invalidURL` naming the parameter.
    static func check(_ url: HandoffURL) throws(JournalError) -> PaymentType {
        for (name, expected) in fixed {
            guard let value = url.value(name) else {
                throw JournalError(.invalidURL, "\(name) is missing", parameter: name, expected: expected)
            }
            guard value == expected else {
                throw JournalError(.invalidURL, "\(name) must be \(expected)", parameter: name, expected: expected, found: value)
            }
        }
        guard let service = url.value("Payment_Service") else {
            throw JournalError(.invalidURL, "Payment_Service is missing", parameter: "Payment_Service", expected: "010 or 060")
        }
        switch service {
        case "010":
            try digits(url, "Amount")
            return .creditCard
        case "060":
            try digits(url, "Receive_Agency_Code")
            try text(url, "Receive_Agency_Name")
            try text(url, "Consignor_Name")
            try digits(url, "Consignor_Code")
            return .account
        default:
            throw JournalError(
                .invalidURL, "Payment_Service must be 010 (credit card) or 060 (account)",
                parameter: "Payment_Service", expected: "010 or 060", found: service)
        }
    }

    /// A parameter of digits only (as the document's examples show codes and amounts).
    static func digits(_ url: HandoffURL, _ name: String) throws(JournalError) {
        guard let value = url.value(name) else { throw JournalError(.invalidURL, "\(name) is missing", parameter: name) }
        guard isDigits(value) else {
            throw JournalError(.invalidURL, "\(name) must be digits", parameter: name, expected: "digits", found: value)
        }
    }

    /// A parameter of non-empty text.
    static func text(_ url: HandoffURL, _ name: String) throws(JournalError) {
        guard let value = url.value(name), !value.isEmpty else {
            throw JournalError(.invalidURL, "\(name) is missing", parameter: name)
        }
    }

    /// Whether `value` is one or more ASCII digits.
    static func isDigits(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
    }
}
