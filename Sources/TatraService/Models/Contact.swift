#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// A person the user can pay: a top contact, an entry of the contact list, or the recipient of
/// a payment.
///
/// One JSON shape for Android `TTContact` (`fullName`, `phone`, `image`) and iOS `TATRAContact`
/// (`fullName`, `icon`, and `phones` from `PKContact`).
public struct Contact: JSONModel, Equatable {
    /// The contact's full name. Android `TTContact.fullName`, iOS `TATRAContact.fullName`.
    /// - MinLength: 1
    /// - Example: "Jana Nováková"
    public var fullName: String
    /// The contact's phone numbers, in international format; the first one is the number a payment
    /// goes to. iOS `PKContact.phones` (`NSArray<PKPhoneNumber*>`, each carried as its number);
    /// Android `TTContact.phone` is the first element, and is accepted in its place.
    /// - Example: ["+421900123456"]
    /// - Alias: phone (Android, one element)
    public var phones: [String]
    /// The contact's picture, as a URI. Android `TTContact.image` (`Uri`); iOS `TATRAContact.icon`
    /// (a `UIImage`, which a gateway carries as the URI of the image), accepted as `icon`.
    /// - Alias: icon (iOS)
    public var image: URL?
}
