/// A `{name}` in a template that is neither one of its ``TemplateSlot``s nor one of its
/// constants: thrown when the template is split (when a service reads its sandbox data).
public struct UnknownTemplatePlaceholder: Error, Equatable {
    /// The name between the braces.
    public let name: String

    /// The error for `{name}`.
    public init(name: String) {
        self.name = name
    }
}
