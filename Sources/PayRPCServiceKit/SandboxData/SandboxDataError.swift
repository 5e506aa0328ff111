/// Why a sandbox data file cannot be used (a start-up error): the file, the JSON Pointer of the
/// value at fault (empty for the whole file), and what is wrong.
public struct SandboxDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as given (or the shipped file's name).
    public let file: String
    /// JSON Pointer (RFC 6901) to the value at fault; empty when the file as a whole is.
    public let pointer: String
    /// What is wrong.
    public let message: String

    /// An error of `file` at `pointer`.
    public init(file: String, pointer: String = "", message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
    }

    /// `file: pointer: message` (`file: message` for the whole file).
    public var description: String { pointer.isEmpty ? "\(file): \(message)" : "\(file): \(pointer): \(message)" }
}
