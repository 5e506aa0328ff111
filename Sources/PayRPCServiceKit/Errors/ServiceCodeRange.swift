/// The JSON-RPC codes each service's domain errors take: one block of a hundred per service, so
/// that a code names its service (docs/adding-a-service.md has the table). A service's error kinds
/// declare their codes explicitly, inside their block (``ServiceErrorKind/codeProblems``).
public struct ServiceCodeRange: Sendable, Equatable, CustomStringConvertible {
    /// The service.
    public let service: String
    /// Its codes, from -33x00 down to -33x99.
    public let codes: ClosedRange<Int>

    /// The block of `service`, from `first` (the highest code, -33x00) down 99 codes.
    public init(service: String, first: Int) {
        self.service = service
        self.codes = (first - 99)...first
    }

    public var description: String { "\(service): \(codes.upperBound)…\(codes.lowerBound)" }

    /// `tatra`: -33000…-33099.
    public static let tatra = ServiceCodeRange(service: "tatra", first: -33000)
    /// `pbba`: -33100…-33199.
    public static let pbba = ServiceCodeRange(service: "pbba", first: -33100)
    /// `journal`: -33200…-33299.
    public static let journal = ServiceCodeRange(service: "journal", first: -33200)
    /// `northstar`: -33300…-33399.
    public static let northstar = ServiceCodeRange(service: "northstar", first: -33300)
    /// `dotpay`: -33400…-33499.
    public static let dotpay = ServiceCodeRange(service: "dotpay", first: -33400)

    /// Every service's block, in code order: a sixth service takes the next (-33500).
    public static let all: [ServiceCodeRange] = [.tatra, .pbba, .journal, .northstar, .dotpay]
}
