#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// The `data` of `missingContactPermissionError(String title, String subtitle, Uri uri)`: the app
/// may not read the contacts; the screen explains why and links to the settings.
public struct MissingContactPermissionErrorData: JSONModel, Equatable {
    /// Always `missingContactPermission`.
    public var type: TatraErrorType
    /// `PERMISSION_DENIED`.
    public var status: TatraErrorStatus
    /// Always false: once the user grants the permission the flow goes on.
    public var fatal: Bool
    /// The title of the screen (the factory's `title`).
    public var title: String
    /// The explanation under the title (the factory's `subtitle`).
    public var subtitle: String
    /// Where the user grants the permission (the factory's `uri`, Android `Uri`).
    public var uri: URL
}
