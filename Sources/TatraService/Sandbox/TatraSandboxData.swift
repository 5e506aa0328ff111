#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PayRPCJSON
import PayRPCSchema

/// Everything the tatra sandbox answers with and every rule it applies: setup data, the account
/// owner, balance, due date, IBAN, contacts, the PIN, the wrong-PIN limit, the authorization
/// lifetime, the magic amounts, the contact permission default, and the texts.
///
/// Read from `tatra-sandbox.json`: the copy shipped with the service (`Bundle.module`), or the
/// file given with `--sandbox-data FILE`. Nothing of it is a literal in the service's code.
public struct TatraSandboxData: Sendable {
    /// The account owner: whom the user cannot pay (`sameRecipientError`).
    public struct Owner: Sendable, Equatable, Decodable {
        /// The owner's name.
        public var fullName: String
        /// The owner's phone number.
        public var phone: String
    }

    /// What `tatra.fetchSetupData` answers; its regexes and limits validate payments.
    public var setup: SetupData
    /// The currency of every amount (ISO 4217), used in the confirmation texts.
    public var currency: String
    /// The account owner.
    public var owner: Owner
    /// The balance before any sandbox payment.
    public var balance: Amount
    /// The balance's due date.
    public var dueDate: Date
    /// The account's IBAN (electronic format).
    public var iban: String
    /// What `tatra.fetchTopContacts` answers.
    public var topContacts: [Contact]
    /// What `tatra.fetchContacts` answers.
    public var contacts: [Contact]
    /// How many wrong PINs in a row block the application.
    public var wrongPinLimit: Int
    /// How long a successful `tatra.authorize` lasts.
    public var authorizationLifetime: Duration
    /// Whether a new profile has granted the contacts permission.
    public var contactPermissionGranted: Bool
    /// Amounts that make a payment fail in a documented way.
    public var magicAmounts: [MagicAmount]
    /// Error titles and confirmation templates.
    public var texts: TatraSandboxTexts
    /// The PIN (never printed).
    let pin: SandboxPIN
    let descriptionRegex: CompiledRegex
    let phoneRegex: CompiledRegex
    let contactPermissionURI: URL
    /// The amount limits in cents.
    let minimumCents: Int64
    let maximumCents: Int64
    /// The magic amounts by their cents.
    let magicByCents: [Int64: MagicAmount]
    /// The smallest and largest magic amount in cents: most amounts fall outside, and checking
    /// that costs two comparisons where the dictionary's lookup costs a hash.
    let magicCentsRange: ClosedRange<Int64>?
    let confirmationTemplate: PaymentTemplate
    let shareTemplate: PaymentTemplate

    /// The file shipped with the service.
    public static var bundledFile: URL? {
        Bundle.module.url(forResource: "tatra-sandbox", withExtension: "json")
    }

    /// Reads the sandbox data from `file`, or from the copy shipped with the service when nil.
    /// - Throws: ``TatraSandboxDataError`` naming the file and what is wrong in it.
    public static func load(from file: URL?) throws -> TatraSandboxData {
        guard let url = file ?? bundledFile else {
            throw TatraSandboxDataError(file: "tatra-sandbox.json", message: "the bundled file is missing")
        }
        let bytes: Data
        do {
            bytes = try Data(contentsOf: url)
        } catch {
            throw TatraSandboxDataError(file: url.path, message: "cannot be read: \(error.localizedDescription)")
        }
        return try parse(bytes, file: url.path)
    }

    /// Reads sandbox data from the bytes of a `tatra-sandbox.json`.
    /// - Throws: ``TatraSandboxDataError`` saying what is wrong.
    public static func parse(_ bytes: Data, file: String = "tatra-sandbox.json") throws -> TatraSandboxData {
        let raw: RawFile
        do {
            raw = try JSONDecoder().decode(RawFile.self, from: bytes)
        } catch {
            throw TatraSandboxDataError(file: file, message: "\(error)")
        }
        do {
            return try TatraSandboxData(raw)
        } catch let error as FieldError {
            throw TatraSandboxDataError(file: file, message: "\(error.field): \(error.message)")
        }
    }

    private init(_ raw: RawFile) throws {
        func decimal(_ text: String, _ field: String) throws -> Amount {
            guard let value = Amount(text) else {
                throw FieldError(field: field, message: "\"\(text)\" is not a decimal string such as \"10.00\"")
            }
            return value
        }
        func url(_ text: String, _ field: String) throws -> URL {
            guard let value = URL(string: text), value.scheme != nil else {
                throw FieldError(field: field, message: "\"\(text)\" is not an absolute URI")
            }
            return value
        }
        func regex(_ pattern: String, _ field: String) throws -> CompiledRegex {
            do { return try CompiledRegex(pattern) } catch {
                throw FieldError(field: field, message: "the regular expression does not compile")
            }
        }
        func contact(_ raw: RawContact, _ field: String) throws -> Contact {
            guard !raw.fullName.isEmpty else { throw FieldError(field: field + ".fullName", message: "is empty") }
            guard !raw.phones.isEmpty else { throw FieldError(field: field + ".phones", message: "is empty") }
            return Contact(fullName: raw.fullName, phones: raw.phones,
                           image: try raw.image.map { try url($0, field + ".image") })
        }

        let minimum = try decimal(raw.setup.minTransactionAmount, "setup.minTransactionAmount")
        let maximum = try decimal(raw.setup.maxTransactionAmount, "setup.maxTransactionAmount")
        guard minimum <= maximum else {
            throw FieldError(field: "setup.minTransactionAmount", message: "is above maxTransactionAmount")
        }
        guard let minimumCents = PaymentText.exactCents(minimum) else {
            throw FieldError(field: "setup.minTransactionAmount", message: "has more than two decimals")
        }
        guard let maximumCents = PaymentText.exactCents(maximum) else {
            throw FieldError(field: "setup.maxTransactionAmount", message: "has more than two decimals")
        }
        self.minimumCents = minimumCents
        self.maximumCents = maximumCents
        guard raw.setup.descriptionValidationLength >= 0 else {
            throw FieldError(field: "setup.descriptionValidationLength", message: "is negative")
        }
        setup = SetupData(
            isActivated: raw.setup.isActivated,
            descriptionValidationRegex: raw.setup.descriptionValidationRegex,
            descriptionValidationLength: raw.setup.descriptionValidationLength,
            phoneValidationRegex: raw.setup.phoneValidationRegex,
            minTransactionAmount: minimum, maxTransactionAmount: maximum,
            redirectionUri: try raw.setup.redirectionUri.map { try url($0, "setup.redirectionUri") })
        descriptionRegex = try regex(raw.setup.descriptionValidationRegex, "setup.descriptionValidationRegex")
        phoneRegex = try regex(raw.setup.phoneValidationRegex, "setup.phoneValidationRegex")
        currency = raw.currency
        owner = raw.owner
        balance = try decimal(raw.balance, "balance")
        guard let due = RFC3339.parse(raw.dueDate) else {
            throw FieldError(field: "dueDate", message: "\"\(raw.dueDate)\" is not an RFC 3339 date-time")
        }
        dueDate = due
        guard !raw.iban.isEmpty else { throw FieldError(field: "iban", message: "is empty") }
        iban = raw.iban
        topContacts = try raw.topContacts.enumerated().map { try contact($1, "topContacts[\($0)]") }
        contacts = try raw.contacts.enumerated().map { try contact($1, "contacts[\($0)]") }
        guard !raw.pin.isEmpty else { throw FieldError(field: "pin", message: "is empty") }
        pin = SandboxPIN(raw.pin)
        guard raw.wrongPinLimit >= 1 else { throw FieldError(field: "wrongPinLimit", message: "must be at least 1") }
        wrongPinLimit = raw.wrongPinLimit
        guard raw.authorizationLifetimeSeconds >= 1 else {
            throw FieldError(field: "authorizationLifetimeSeconds", message: "must be at least 1")
        }
        authorizationLifetime = .seconds(raw.authorizationLifetimeSeconds)
        contactPermissionGranted = raw.contactPermissionGranted
        magicAmounts = try raw.magicAmounts.enumerated().map { index, entry in
            let field = "magicAmounts[\(index)]"
            let times = entry.outOfServiceTimes ?? 1
            guard times >= 1 else { throw FieldError(field: field + ".outOfServiceTimes", message: "must be at least 1") }
            return MagicAmount(amount: try decimal(entry.amount, field + ".amount"), outcome: entry.outcome,
                               outOfServiceTimes: times)
        }
        var magicByCents: [Int64: MagicAmount] = [:]
        for (index, magic) in magicAmounts.enumerated() {
            guard let cents = PaymentText.exactCents(magic.amount) else {
                throw FieldError(field: "magicAmounts[\(index)].amount", message: "has more than two decimals")
            }
            magicByCents[cents] = magic
        }
        self.magicByCents = magicByCents
        magicCentsRange = magicByCents.keys.min().map { $0...magicByCents.keys.max()! }
        texts = raw.texts
        contactPermissionURI = try url(raw.texts.missingContactPermissionUri, "texts.missingContactPermissionUri")
        func template(_ text: String, _ field: String) throws -> PaymentTemplate {
            do { return try PaymentTemplate(text) } catch {
                throw FieldError(field: field, message: "unknown placeholder {\(error.name)}")
            }
        }
        confirmationTemplate = try template(raw.texts.paymentConfirmation, "texts.paymentConfirmation")
        shareTemplate = try template(raw.texts.paymentShare, "texts.paymentShare")
    }

    /// The magic amount equal to `amount`, if any.
    func magic(for amount: Amount) -> MagicAmount? {
        PaymentText.exactCents(amount).flatMap(magic(cents:))
    }

    /// The magic amount of `cents`, if any.
    func magic(cents: Int64) -> MagicAmount? {
        guard let range = magicCentsRange, range.contains(cents) else { return nil }
        return magicByCents[cents]
    }

    private struct FieldError: Error {
        let field: String
        let message: String
    }

    private struct RawFile: Decodable {
        struct Setup: Decodable {
            var isActivated: Bool
            var descriptionValidationRegex: String
            var descriptionValidationLength: Int
            var phoneValidationRegex: String
            var minTransactionAmount: String
            var maxTransactionAmount: String
            var redirectionUri: String?
        }
        struct Magic: Decodable {
            var amount: String
            var outcome: MagicAmount.Outcome
            var outOfServiceTimes: Int?
        }
        var setup: Setup
        var currency: String
        var owner: Owner
        var balance: String
        var dueDate: String
        var iban: String
        var topContacts: [RawContact]
        var contacts: [RawContact]
        var pin: String
        var wrongPinLimit: Int
        var authorizationLifetimeSeconds: Int
        var contactPermissionGranted: Bool
        var magicAmounts: [Magic]
        var texts: TatraSandboxTexts
    }

    private struct RawContact: Decodable {
        var fullName: String
        var phones: [String]
        var image: String?
    }
}
