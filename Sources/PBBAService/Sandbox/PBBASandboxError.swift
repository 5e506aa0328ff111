/// Why a PBBA sandbox file could not be loaded (a start-up error).
public struct PBBASandboxError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public let message: String
    /// The message.
    public var description: String { message }
}
