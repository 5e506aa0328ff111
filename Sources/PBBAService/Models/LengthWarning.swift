import PayRPCJSON
import PayRPCSchema

/// A string of the error pop-up is longer than the document recommends (section 4.2.3.2: code 5,
/// title 25, message 75 characters). The pop-up is still shown; the length is not limited.
public struct LengthWarning: JSONModel, Equatable {
    /// The param: `errorCode`, `errorTitle` or `errorMessage`.
    public var field: String
    /// Its length in characters.
    public var length: Int
    /// The recommended maximum.
    public var recommendedMaximum: Int
    /// For people.
    public var message: String
}
