import PayRPCJSON
import PayRPCSchema

/// The `data` of every journal error.
public struct JournalErrorData: JSONModel, Equatable {
    /// The error's name (`invalidURL`, `entryNotFound`, ...).
    public var type: String
    /// The gRPC canonical status.
    public var status: String
    /// What is wrong.
    public var detail: String
    /// The URL parameter concerned.
    public var parameter: String?
    /// What it must be.
    public var expected: String?
    /// What it was.
    public var found: String?
}
