#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// The account's current balance and the date its statement falls due. Android `BalanceData`,
/// iOS `TATRABalanceData`.
public struct BalanceData: JSONModel, Equatable {
    /// The current balance. Android `BigDecimal balance`, iOS `NSNumber* balance`.
    /// - Example: "1523.47"
    public var balance: Amount
    /// When the balance falls due. Android `Date dueDate`, iOS `NSDate* dueDate`.
    public var dueDate: Date
}
