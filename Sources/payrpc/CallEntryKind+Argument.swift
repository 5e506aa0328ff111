public import ArgumentParser
public import PayRPCCalls
import PayRPCJSON

/// `--kind call|push|http`: the journal's own kinds, their names read from the generated schema
/// (so a kind added to `CallEntryKind` is offered here without a second list).
extension CallEntryKind: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }

    public static var allValueStrings: [String] {
        guard case .array(let names)? = schemaDefinition["enum"] else { return [] }
        return names.compactMap(\.stringValue)
    }
}
