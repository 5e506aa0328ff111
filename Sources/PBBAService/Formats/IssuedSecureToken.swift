/// A secure token as payrpc issues it: 40 lowercase hex digits.
///
/// 160 random bits. A secret: the server keeps only a keyed hash of it.
/// - Pattern: ^[0-9a-f]{40}$
/// - Sensitive
/// - Example: "3f786850e387550fdab836ed7e6dc881de23001b"
public typealias IssuedSecureToken = String
