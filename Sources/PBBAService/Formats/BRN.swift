/// A BRN: six letters or digits.
///
/// The code that identifies a payment request during its retrieval period (Table 4 `brn`), as
/// the Consumer types it into the bank app on another device.
/// - Pattern: ^[A-Za-z0-9]{6}$
/// - Example: "K7MXQ2"
public typealias BRN = String
