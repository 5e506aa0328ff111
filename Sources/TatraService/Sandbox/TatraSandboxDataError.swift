/// Why `tatra-sandbox.json` could not be used (a start-up error).
public struct TatraSandboxDataError: Error, Sendable, CustomStringConvertible {
    /// The file.
    public let file: String
    /// What is wrong, naming the field.
    public let message: String

    /// `file: message`.
    public var description: String { "\(file): \(message)" }
}
