import Foundation
import PayRPCJSON
import PayRPCSchema

/// Which payment request a code currently belongs to (namespace `pbba.brns`, keyed by the code):
/// how the bank app on another device retrieves a request by its code (E-COMM).
struct BRNIndexEntry: JSONModel, Equatable {
    /// The store key of the request (the hash of its secureToken).
    var requestKey: String
    /// When the code stops identifying the request; after that it may be reused.
    var expiresAt: Date
}
