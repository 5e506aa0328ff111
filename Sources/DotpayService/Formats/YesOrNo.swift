/// A flag written as YES or NO.
/// - Pattern: ^(YES|NO)$
/// - Example: "YES"
public typealias YesOrNo = String
