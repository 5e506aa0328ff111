/// The JSON-RPC codes each service's domain errors take: one block of a hundred per service, so
/// that a code names its service (docs/adding-a-service.md has the table). Each service declares
/// its own (``GatewayService/codeRange``; the gateway refuses two that overlap), and its error
/// kinds declare their codes explicitly, inside that block (``ServiceErrorKind/codeProblems``).
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

    /// Whether the two blocks share a code.
    public func overlaps(_ other: ServiceCodeRange) -> Bool { codes.overlaps(other.codes) }
}
