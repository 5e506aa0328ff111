/// A payment request ID: "pr_" and 16 lowercase hex digits.
///
/// A non-secret id of a request, carried by the notifications about it.
/// - Pattern: ^pr_[0-9a-f]{16}$
/// - Example: "pr_0123456789abcdef"
public typealias RequestID = String
