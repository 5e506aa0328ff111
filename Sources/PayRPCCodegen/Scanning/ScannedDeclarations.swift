import SwiftSyntax

/// Swift access levels, ordered from least to most visible.
enum AccessLevel: Int, Comparable {
    case `private`, `fileprivate`, `internal`, `package`, `public`, `open`

    static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The access level a modifier list spells, or nil when it names none.
    init?(modifiers: DeclModifierListSyntax) {
        for modifier in modifiers where modifier.detail == nil {
            switch modifier.name.text {
            case "private":
                self = .private
                return
            case "fileprivate":
                self = .fileprivate
                return
            case "internal":
                self = .internal
                return
            case "package":
                self = .package
                return
            case "public":
                self = .public
                return
            case "open":
                self = .open
                return
            default: continue
            }
        }
        return nil
    }

    /// The setter's access level a modifier list spells (`private(set)`), or nil.
    init?(setterModifiers modifiers: DeclModifierListSyntax) {
        for modifier in modifiers where modifier.detail?.detail.text == "set" {
            guard let level = AccessLevel(name: modifier.name.text) else { continue }
            self = level
            return
        }
        return nil
    }

    private init?(name: String) {
        switch name {
        case "private": self = .private
        case "fileprivate": self = .fileprivate
        case "internal": self = .internal
        case "package": self = .package
        case "public": self = .public
        case "open": self = .open
        default: return nil
        }
    }

    /// The modifier to write on generated members (with a trailing space), "" for internal.
    var memberModifier: String {
        switch self {
        case .public, .open: return "public "
        case .package: return "package "
        default: return ""
        }
    }
}

/// The kinds of nominal type a source may declare.
enum DeclaredKind: String {
    case `struct`, `enum`, `class`, `actor`, `protocol`
}

/// One nominal type as written in a source file, before any name is resolved.
struct ScannedType {
    var module: String
    var file: String
    var line: Int
    /// The type's name path inside its module: `["ExecutePayment", "Params"]`.
    var path: [String]
    var kind: DeclaredKind
    /// The inherited type names as written, without module qualification.
    var inherited: [String]
    var access: AccessLevel?
    var doc: DocComment
    var isGeneric: Bool
    var properties: [ScannedProperty] = []
    var cases: [ScannedCase] = []
    /// A member construct the generator cannot look through (`#if` in the body), with its line.
    var unsupportedMembers: [(line: Int, reason: String)] = []
    /// Whether the body declares its own `init(json:)` or `encode(to:)`: a hand-written codec the
    /// generator leaves alone.
    var hasHandWrittenCodec = false
    /// Declaration order across the whole run (file order, then position in the file).
    var order: Int

    var swiftName: String { path.joined(separator: ".") }
}

/// A `var` or `let` of a type body.
struct ScannedProperty {
    var name: String
    var line: Int
    var isLet: Bool
    var isStatic: Bool
    var isComputed: Bool
    var isLazy: Bool
    /// A property wrapper (`@Clamped`, a custom attribute), which changes what is stored.
    var attribute: String?
    /// Whether `@available(..., deprecated ...)` marks the property.
    var isDeprecatedByAttribute = false
    /// The narrowest of the property's and its setter's access levels, when spelled.
    var writeAccess: AccessLevel?
    var type: TypeSyntax?
    var initializer: ExprSyntax?
    var doc: DocComment
}

/// One `case` of an enum.
struct ScannedCase {
    var name: String
    var line: Int
    var rawValue: ExprSyntax?
    /// The associated values, nil when the case has none.
    var parameters: [(label: String?, type: TypeSyntax)]?
    var doc: DocComment
}

/// A `typealias` in a scanned module, which field types may name; with constraint tags, a
/// named format (``NamedFormat``).
struct ScannedAlias {
    var module: String
    var file: String
    var line: Int
    var path: [String]
    var type: TypeSyntax
    var doc = DocComment(lines: [])
}

/// An `extension` that declares `JSONModel` conformance (not supported: the stored properties
/// must be read from the type's declaration).
struct ScannedConformingExtension {
    var file: String
    var line: Int
    var typeName: String
}

/// Everything the scanner found in a set of files.
struct ScanResult {
    var types: [ScannedType] = []
    var aliases: [ScannedAlias] = []
    var conformingExtensions: [ScannedConformingExtension] = []
}
