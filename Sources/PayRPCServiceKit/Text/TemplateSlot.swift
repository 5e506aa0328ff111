/// The placeholders a service's ``TextTemplate`` may use, as an enum of their names
/// (`enum PaymentPlaceholder: String, TemplateSlot { case amount, name }` for `{amount}` and
/// `{name}`): the template is split into literal text and these once, and filling it in is a
/// `switch` over them.
public protocol TemplateSlot: RawRepresentable, Sendable, Hashable where RawValue == String {}
