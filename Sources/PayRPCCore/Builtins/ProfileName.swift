/// A profile name: 1 to 64 letters, digits, dots, underscores or hyphens.
///
/// Names the state of one app user on one device (`rpc.hello`).
/// - Pattern: ^[A-Za-z0-9._-]{1,64}$
/// - Example: "alice"
public typealias ProfileName = String
