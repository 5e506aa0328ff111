/// An ISO 4217 currency: its three-letter code and how many digits its minor unit has (JPY 0,
/// EUR 2, KWD 3).
///
/// Only codes in ISO 4217's list of active currencies exist; `Currency(code:)` refuses the rest.
/// Services use it to check that an amount has no more decimals than its currency allows
/// (PayPal's Orders v2 refuses `"10.5"` JPY) and to convert between the decimal string on the wire
/// and integer minor units (the journal's `Amount=10000`).
public struct Currency: Sendable, Hashable, CustomStringConvertible {
    /// The alphabetic code (`PLN`).
    public let code: String
    /// Digits after the decimal point of the minor unit (2 for PLN's grosz).
    public let minorUnitDigits: Int

    /// The currency of `code` (upper case), or nil when ISO 4217 has no active currency of that
    /// code.
    public init?(code: String) {
        guard let digits = Self.table[code] else { return nil }
        self.code = code
        self.minorUnitDigits = digits
    }

    private init(known code: String) {
        self.code = code
        self.minorUnitDigits = Self.table[code]!
    }

    public var description: String { code }

    /// Polish złoty, Dotpay's default.
    public static let PLN = Currency(known: "PLN")
    /// Euro.
    public static let EUR = Currency(known: "EUR")
    /// US dollar.
    public static let USD = Currency(known: "USD")
    /// Pound sterling.
    public static let GBP = Currency(known: "GBP")
    /// Japanese yen (no minor unit).
    public static let JPY = Currency(known: "JPY")

    /// Every active currency, by code.
    public static var all: [Currency] { table.keys.sorted().map { Currency(known: $0) } }

    /// The schema pattern of a currency code; the codec then checks the code is a real one.
    public static let codePattern = "^[A-Z]{3}$"

    /// What a currency is, in words: with ``formatExample``, the schemas' `x-format` of every
    /// currency field, which a client whose code breaks ``codePattern`` reads in the violation.
    public static let formatSummary = "a currency: an ISO 4217 code of three capital letters"

    /// A currency code as the wire carries it, for ``formatSummary``.
    public static let formatExample = "EUR"

    /// ISO 4217's active codes (list one, 2025) and their minor-unit digits. Written out here
    /// because neither Foundation on Linux nor a mirrored package exposes the minor units.
    static let table: [String: Int] = {
        var table: [String: Int] = [:]
        let two = """
            AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP \
            BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD \
            FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD \
            KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD \
            NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP \
            SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED \
            VES WST XCD XCG YER ZAR ZMW ZWG
            """
        for code in two.split(separator: " ") { table[String(code)] = 2 }
        for code in [
            "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
            "VUV", "XAF", "XOF", "XPF",
        ] { table[code] = 0 }
        for code in ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"] { table[code] = 3 }
        for code in ["CLF", "UYW"] { table[code] = 4 }
        return table
    }()
}

extension Currency: JSONCodable {
    /// Reads a currency code; an unknown code is an error that says so.
    public init(json: JSONElement) throws(JSONDecodingError) {
        guard let code = json.string else { throw .expected("an ISO 4217 currency code", found: json) }
        guard let currency = Currency(code: code) else {
            throw JSONDecodingError("\"\(code)\" is not an active ISO 4217 currency code")
        }
        self = currency
    }

    /// Writes the code.
    public func encode(to writer: inout JSONWriter) { writer.string(code) }
}

/// An amount in a currency, checked to have no more decimals than the currency's minor unit.
///
/// Services that need integer minor units (the journal's `Amount=10000`, Dotpay's grosze, a
/// sandbox's magic amounts) use ``minorUnits``; the wire form is the amount's decimal string and
/// the code, in whatever shape the service's document gives them (`{currencyCode, value}`).
public struct Money: Sendable, Hashable, CustomStringConvertible {
    /// The currency.
    public let currency: Currency
    /// The amount, at most ``Currency/minorUnitDigits`` decimals (as written: `"10.5"` stays `"10.5"`).
    public let amount: Amount

    /// Pairs `amount` with `currency`.
    /// - Throws: ``MoneyError`` when the amount has more decimals than the currency's minor unit
    ///   (`"10.505"` EUR, `"1.5"` JPY) or is too large to count in minor units.
    public init(amount: Amount, currency: Currency) throws(MoneyError) {
        guard amount.minorUnits(scale: currency.minorUnitDigits) != nil else {
            throw MoneyError(amount: amount, currency: currency)
        }
        self.amount = amount
        self.currency = currency
    }

    /// The amount of `minorUnits` (cents, grosze, yen) of `currency`, written with the currency's
    /// decimals (`1050` PLN is `"10.50"`).
    public init(minorUnits: Int64, currency: Currency) {
        self.amount = Amount(units: minorUnits, scale: currency.minorUnitDigits)
        self.currency = currency
    }

    /// The amount as an integer of minor units (`"10.5"` EUR is 1050).
    public var minorUnits: Int64 { amount.minorUnits(scale: currency.minorUnitDigits)! }

    /// The amount written with exactly the currency's decimals (`"10.50"`).
    public var text: String { amount.rescaled(to: currency.minorUnitDigits)!.description }

    /// `"10.50 PLN"`.
    public var description: String { text + " " + currency.code }
}

/// An amount has more decimals than its currency's minor unit allows.
public struct MoneyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The amount as given.
    public let amount: Amount
    /// The currency.
    public let currency: Currency

    public var description: String {
        currency.minorUnitDigits == 0
            ? "\(amount) \(currency.code): \(currency.code) has no minor unit, so the amount must be a whole number"
            : "\(amount) \(currency.code): \(currency.code) allows at most \(currency.minorUnitDigits) decimals"
    }
}
