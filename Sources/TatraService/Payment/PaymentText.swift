import PayRPCJSON

/// Amounts as integer cents and as two-decimal text.
///
/// `tatra.executePayment` turns the amount into cents once (``TatraSandboxData/cents(_:)``, the
/// kit's money check against the sandbox's currency) and then works with integers.
enum PaymentText {
    /// `cents` as an exact amount with two decimals (`1250` → `12.50`).
    static func amount(cents: Int64) -> Amount { Amount(units: cents, scale: 2) }

    /// `cents` as text with two decimals (`1250` → `12.50`).
    static func format(cents: Int64) -> String {
        withText(cents: cents) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with `cents` as text with two decimals (`1250` → `12.50`), its ASCII digits
    /// written into a buffer on the stack: no array and no heap allocation (through
    /// `Amount.description` it cost 820 instructions of each `tatra.executePayment`), and a
    /// confirmation takes the bytes straight into its text, without making a `String` of them
    /// (which checked them as UTF-8 again: 160 instructions).
    @inline(__always)
    static func withText<Result>(cents: Int64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // At most 19 digits, the point and the sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
            var magnitude = cents.magnitude
            var start = buffer.count
            // Digits from the last, the point after two, at least one digit before it.
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0")
                magnitude /= 10
                if start == buffer.count - 2 {
                    start -= 1
                    buffer[start] = UInt8(ascii: ".")
                }
            } while magnitude > 0 || start > buffer.count - 4
            if cents < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[start...])))
        }
    }

    /// `amount` with exactly two decimals (`12.5` → `12.50`); the amounts given here (limits,
    /// held payments) have at most two by construction, else the text keeps the amount's own.
    static func amount(_ amount: Amount) -> String { (amount.rescaled(to: 2) ?? amount).description }
}
