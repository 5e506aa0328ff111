// A module-like sample of models, compiled into this test target together with the codec the
// generator writes for it (`Sample+Generated.swift`, checked for drift by `SampleTests`), so the
// round-trip tests prove that generated code compiles and works.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// A person the user can pay.
/// - SchemaName: Contact
struct SampleContact: JSONModel, Equatable {
    /// Full name as shown in the app.
    /// - MinLength: 1
    var fullName: String
    /// Phone numbers.  - MinItems: 1
    var phones: [String]
    /// - Key: image_url
    var image: URL?
    /// - Pattern: ^[A-Z]{3}$
    /// - Example: "EUR"
    var currency: String = "EUR"
    /// When the contact was added.
    let added: Date
    /// Labels by language.
    var labels: [String: String]?
    /// The usual amount.
    var usualAmount: Amount?
    /// How the contact prefers to be paid.
    var preferred: SampleMethod = .transfer
    /// Extra data passed through.
    var extra: JSONValue?
}

/// A payment reference: "ref-" and four digits.
/// - Pattern: ^ref-[0-9]{4}$
/// - Example: "ref-0042"
typealias SampleReference = String

/// How a payment is made.
enum SampleMethod: String, JSONModel {
    case transfer
    case card
    case instantTransfer = "instant"
}

/// A payment in every numeric and nested shape.
struct SamplePayment: JSONModel, Equatable {
    /// - Minimum: 1
    var id: Int64
    var count: Int
    var small: Int32
    var unsigned: UInt
    /// - ExclusiveMinimum: 0
    var ratio: Double
    var approved: Bool
    var amount: Amount
    var payee: SampleContact
    var history: [SampleContact] = []
    var notes: [String?]?
    /// A nested model.
    var status: Status?
    /// - Deprecated: use `status`
    var legacyStatus: String?
    var `default`: Bool = false
    /// A key that needs JSON escaping.
    /// - Key: say "hi"
    var greeting: String?
    /// The payee's references, in a named format.
    var references: [SampleReference]?

    /// The state of a payment.
    struct Status: JSONModel, Equatable {
        var code: String
        var at: Date?
    }
}

/// A card number: 12 to 19 digits.
/// - Pattern: ^[0-9]{12,19}$
/// - Sensitive: last4
/// - Example: "4111111111111111"
typealias SampleCardNumber = String

/// A card and its PIN: secrets declared by format and by tag, masked by ``SensitiveMask``.
struct SampleCardInput: JSONModel, Equatable {
    var number: SampleCardNumber
    /// - Sensitive
    var pin: String
    var holder: String?
    /// The cards it replaces.
    var replaced: [SampleCardInput]?
}

/// Create an order.
struct SampleCreateOrder: JSONModel, Equatable {
    var items: [String]
    var note: String?
}

/// Refer to an existing order.
struct SampleExistingOrder: JSONModel, Equatable {
    var orderId: String
    var note: String?
}

/// Either form of an order.
enum SampleOrderInput: JSONModel, Equatable {
    case create(SampleCreateOrder)
    case existing(SampleExistingOrder)
}

/// No members at all.
struct SampleEmpty: JSONModel, Equatable {}

/// A model with a hand-written codec (a shape the generator cannot express): the generator
/// leaves it alone, and models that use it take its schema at run time.
struct SampleHandWritten: JSONModel, Equatable {
    var pair: (Int, Int)

    init(pair: (Int, Int)) { self.pair = pair }

    static func == (lhs: SampleHandWritten, rhs: SampleHandWritten) -> Bool { lhs.pair == rhs.pair }

    init(json: JSONElement) throws(JSONDecodingError) {
        let numbers = try [Int](json: json)
        guard numbers.count == 2 else { throw JSONDecodingError("expected two integers") }
        pair = (numbers[0], numbers[1])
    }

    func encode(to writer: inout JSONWriter) { [pair.0, pair.1].encode(to: &writer) }

    static var fieldOrder: [String] { [] }
    static var schemaReference: JSONValue {
        .object([
            JSONValue.Member("items", .object([JSONValue.Member("type", .string("integer"))])),
            JSONValue.Member("maxItems", .number("2")), JSONValue.Member("minItems", .number("2")),
            JSONValue.Member("type", .string("array")),
        ])
    }
}

/// Uses the hand-written model.
struct SampleUsesHandWritten: JSONModel, Equatable {
    var point: SampleHandWritten
    /// Documented, so its schema wraps the run-time one.
    var points: [SampleHandWritten]?
}

/// A stand-in for PayRPCCore's `RPCMethod`, which this test target does not link: the generator
/// knows methods by the protocol's name, and writes a checked decoder (`checking(_:)`) for the
/// params model of each method and the models it contains.
protocol RPCMethod {}

/// Pays: its params, and the contact inside, get checked decoders.
enum SamplePay: RPCMethod {
    typealias Params = SamplePayment
}

/// Orders: a union's checked decoder.
enum SampleOrder: RPCMethod {
    typealias Params = SampleOrderInput
}

/// Nothing to read: the empty model's checked decoder.
enum SampleNothing: RPCMethod {
    typealias Params = SampleEmpty
}

/// Uses a hand-written model, whose rules the generator cannot see: no checked decoder, so the
/// engine validates its params with the schema first.
enum SampleHandWrittenParams: RPCMethod {
    typealias Params = SampleUsesHandWritten
}
