import SwiftSyntax

/// A method's `traits` as its declaration spells them, `public static let traits: MethodTraits =
/// [.runsInline, .mutates]`: the generator reads `.runsInline` from the array literal.
enum MethodTraitsSyntax {
    /// The members of `MethodTraits` (PayRPCCore). Each was a `static let … = true` of its own
    /// before the one `traits` line; a method that still declares one so is told to list it.
    static let names: Set<String> = [
        "runsInline", "allowedBeforeAuthentication", "mutates", "destructive", "sandboxOnly",
        "changesSandboxControls", "answersWaitingCall", "ordered",
    ]

    /// The traits `method` lists (empty when it declares none), or nil when its `traits` is not an
    /// array literal of `.member`s, which the generator cannot read.
    static func listed(in method: ScannedType) -> Set<String>? {
        guard let property = method.properties.first(where: { $0.isStatic && $0.name == "traits" }) else { return [] }
        guard let array = property.initializer?.as(ArrayExprSyntax.self) else { return nil }
        var listed: Set<String> = []
        for element in array.elements {
            guard let member = element.expression.as(MemberAccessExprSyntax.self) else { return nil }
            listed.insert(member.declName.baseName.text)
        }
        return listed
    }
}
