/// An Orders v2 ID: 17 capital letters or digits.
///
/// The id of an order, a capture or an authorization, as Orders v2 writes them.
/// - Pattern: ^[A-Z0-9]{17}$
/// - Example: "5O190127TN364715T"
public typealias OrdersV2ID = String
