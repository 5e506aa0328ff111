/// A secure token: up to 256 letters, digits, dots, underscores, tildes or hyphens.
///
/// The token that identifies a payment request (Table 4 `secureToken`), as any backend may issue
/// it; `pbba.submitPaymentRequest` issues 40 hex digits (``IssuedSecureToken``).
/// - Pattern: ^[A-Za-z0-9._~-]+$
/// - MaxLength: 256
/// - Sensitive
/// - Example: "3f786850e387550fdab836ed7e6dc881de23001b"
public typealias SecureToken = String
