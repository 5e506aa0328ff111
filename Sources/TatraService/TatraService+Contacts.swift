import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension TatraService {
    /// `tatra.fetchTopContacts`: the sandbox's top contacts, once permitted.
    public func fetchTopContacts(_ params: NoParams, _ context: RequestContext) async throws -> [Contact] {
        try await contacts(top: true, context)
    }

    /// `tatra.fetchContacts`: the sandbox's whole contact list, once permitted.
    public func fetchContacts(_ params: NoParams, _ context: RequestContext) async throws -> [Contact] {
        try await contacts(top: false, context)
    }

    /// The sandbox's contacts, when the profile has granted the contacts permission.
    private func contacts(top: Bool, _ context: RequestContext) async throws -> [Contact] {
        let state = try await profileState(context)
        guard state.contactPermission ?? sandbox.contactPermissionGranted else {
            let texts = sandbox.texts
            throw TatraError.missingContactPermission(
                title: texts.missingContactPermission,
                subtitle: texts.missingContactPermissionSubtitle,
                uri: sandbox.contactPermissionURI)
        }
        return top ? sandbox.topContacts : sandbox.contacts
    }

    /// `sandbox.tatra.setContactPermission`.
    public func sandboxSetContactPermission(
        _ params: SandboxSetContactPermission.Params,
        _ context: RequestContext
    ) async throws -> NoResult {
        let granted = params.granted
        try await updateProfileState(context) { $0.contactPermission = granted }
        return NoResult()
    }
}
