#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// Everything the tatra sandbox answers with and every rule it applies: setup data, the account
/// owner, balance, due date, IBAN, contacts, the PIN, the wrong-PIN limit, the authorization
/// lifetime, the magic amounts, the contact permission default, and the texts.
///
/// Read from `tatra-sandbox.json` (``TatraSandboxFile``, by its generated codec): the copy shipped
/// with the service (`Bundle.module`), or the file given with `--sandbox-data tatra=FILE`, through
/// the kit's loader (``SandboxData``). Nothing of it is a literal in the service's code.
public struct TatraSandboxData: SandboxDataModel {
    /// The account owner: whom the user cannot pay (`sameRecipientError`).
    public struct Owner: JSONModel, Equatable {
        /// The owner's name.
        public var fullName: String
        /// The owner's phone number.
        public var phone: String
    }

    /// What `tatra.fetchSetupData` answers; its regexes and limits validate payments.
    public var setup: SetupData
    /// The currency of every amount (the file's ISO 4217 code, with a two-digit minor unit: the
    /// service counts in cents): what the kit's money check reads amounts against, and the code
    /// in the confirmation texts.
    public var currency: Currency
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
    /// Amounts that make a payment fail in a documented way, by their cents.
    let magicAmounts: MagicTable<Int64, MagicAmount>
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
    let confirmationTemplate: TextTemplate<PaymentPlaceholder>
    let shareTemplate: TextTemplate<PaymentPlaceholder>

    public static let service = "tatra"

    /// The file shipped with the service.
    public static var bundledFile: URL? {
        SandboxData.shippedFile("tatra-sandbox.json", target: "TatraService") { Bundle.module }
    }

    /// Reads the file's codec, then builds what the service runs on; a value that does not make
    /// sense is an error at its JSON Pointer.
    public init(json: JSONElement) throws(JSONDecodingError) {
        try self.init(TatraSandboxFile(json: json))
    }

    private init(_ file: TatraSandboxFile) throws(JSONDecodingError) {
        func problem(_ pointer: String, _ message: String) -> JSONDecodingError { JSONDecodingError(message, pointer: pointer) }
        guard let currency = Currency(code: file.currency) else {
            throw problem("/currency", "\"\(file.currency)\" is not an active ISO 4217 currency code")
        }
        guard currency.minorUnitDigits == 2 else {
            throw problem("/currency", "\(currency.code) does not have a two-digit minor unit (the service counts in cents)")
        }
        self.currency = currency
        func cents(_ amount: Amount, _ pointer: String) throws(JSONDecodingError) -> Int64 {
            guard let cents = Money.minorUnits(of: amount, in: currency, rule: .numeric) else {
                throw problem(pointer, "has more than two decimals")
            }
            return cents
        }
        func regex(_ pattern: String, _ pointer: String) throws(JSONDecodingError) -> CompiledRegex {
            do { return try CompiledRegex(pattern) } catch { throw problem(pointer, "the regular expression does not compile") }
        }
        func checked(_ list: [Contact], _ pointer: String) throws(JSONDecodingError) -> [Contact] {
            for (index, contact) in list.enumerated() {
                if contact.fullName.isEmpty { throw problem("\(pointer)/\(index)/fullName", "is empty") }
                if contact.phones.isEmpty { throw problem("\(pointer)/\(index)/phones", "is empty") }
            }
            return list
        }
        func template(_ text: String, _ pointer: String) throws(JSONDecodingError) -> TextTemplate<PaymentPlaceholder> {
            do { return try TextTemplate(text, constants: ["currency": currency.code]) } catch {
                throw problem(pointer, "unknown placeholder {\(error.name)}")
            }
        }

        let raw = file.setup
        guard raw.minTransactionAmount <= raw.maxTransactionAmount else {
            throw problem("/setup/minTransactionAmount", "is above maxTransactionAmount")
        }
        minimumCents = try cents(raw.minTransactionAmount, "/setup/minTransactionAmount")
        maximumCents = try cents(raw.maxTransactionAmount, "/setup/maxTransactionAmount")
        guard raw.descriptionValidationLength >= 0 else { throw problem("/setup/descriptionValidationLength", "is negative") }
        setup = SetupData(
            isActivated: raw.isActivated, descriptionValidationRegex: raw.descriptionValidationRegex,
            descriptionValidationLength: raw.descriptionValidationLength, phoneValidationRegex: raw.phoneValidationRegex,
            minTransactionAmount: raw.minTransactionAmount, maxTransactionAmount: raw.maxTransactionAmount,
            makePaymentValues: AmountValues(minValue: raw.minTransactionAmount, maxValue: raw.maxTransactionAmount),
            redirectionUri: raw.redirectionUri)
        descriptionRegex = try regex(raw.descriptionValidationRegex, "/setup/descriptionValidationRegex")
        phoneRegex = try regex(raw.phoneValidationRegex, "/setup/phoneValidationRegex")
        owner = file.owner
        balance = file.balance
        dueDate = file.dueDate
        guard !file.iban.isEmpty else { throw problem("/iban", "is empty") }
        iban = file.iban
        topContacts = try checked(file.topContacts, "/topContacts")
        self.contacts = try checked(file.contacts, "/contacts")
        guard !file.pin.isEmpty else { throw problem("/pin", "is empty") }
        pin = SandboxPIN(file.pin)
        guard file.wrongPinLimit >= 1 else { throw problem("/wrongPinLimit", "must be at least 1") }
        wrongPinLimit = file.wrongPinLimit
        guard file.authorizationLifetimeSeconds >= 1 else { throw problem("/authorizationLifetimeSeconds", "must be at least 1") }
        authorizationLifetime = .seconds(file.authorizationLifetimeSeconds)
        contactPermissionGranted = file.contactPermissionGranted
        var keyed: [(key: Int64, entry: MagicAmount)] = []
        for (index, magic) in file.magicAmounts.enumerated() {
            guard magic.outOfServiceTimes >= 1 else {
                throw problem("/magicAmounts/\(index)/outOfServiceTimes", "must be at least 1")
            }
            keyed.append((try cents(magic.amount, "/magicAmounts/\(index)/amount"), magic))
        }
        magicAmounts = MagicTable(keyed: keyed)
        texts = file.texts
        guard let uri = URL(string: file.texts.missingContactPermissionUri), uri.scheme != nil else {
            throw problem(
                "/texts/missingContactPermissionUri", "\"\(file.texts.missingContactPermissionUri)\" is not an absolute URI")
        }
        contactPermissionURI = uri
        confirmationTemplate = try template(file.texts.paymentConfirmation, "/texts/paymentConfirmation")
        shareTemplate = try template(file.texts.paymentShare, "/texts/paymentShare")
    }

    /// `amount` in cents of ``currency`` by the kit's money check (trailing zeros are free:
    /// `12.500` is 1250), or nil when it has more decimals or does not fit 64 bits.
    @inline(__always)
    func cents(_ amount: Amount) -> Int64? { Money.minorUnits(of: amount, in: currency, rule: .numeric) }

    /// The magic amount equal to `amount`, if any.
    func magic(for amount: Amount) -> MagicAmount? {
        cents(amount).flatMap(magic(cents:))
    }

    /// The magic amount of `cents`, if any (two comparisons for most amounts, which are not magic).
    /// Always inlined: called, it took the whole sandbox data as its `self`, and
    /// `tatra.executePayment` copied all of it onto the stack first (docs/benchmarks.md).
    @inline(__always)
    func magic(cents: Int64) -> MagicAmount? {
        magicAmounts[cents]
    }
}
