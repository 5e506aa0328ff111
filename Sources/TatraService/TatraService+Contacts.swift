import PayRPCCore
import PayRPCJSON
import PayRPCSchema

extension TatraService {
    /// `tatra.fetchTopContacts` and `tatra.fetchContacts`: the sandbox's contacts, when the
    /// profile has granted the contacts permission.
    func fetchContacts(top: Bool, _ context: RequestContext) async throws -> [Contact] {
        let state = try await profileState(context)
        guard state.contactPermission ?? sandbox.contactPermissionGranted else {
            let texts = sandbox.texts
            throw TatraError.missingContactPermission(title: texts.missingContactPermission,
                                                      subtitle: texts.missingContactPermissionSubtitle,
                                                      uri: sandbox.contactPermissionURI)
        }
        return top ? sandbox.topContacts : sandbox.contacts
    }

    /// `sandbox.tatra.setContactPermission`.
    func setContactPermission(_ params: SandboxSetContactPermission.Params,
                              _ context: RequestContext) async throws -> NoResult {
        let granted = params.granted
        try await updateProfileState(context) { $0.contactPermission = granted }
        return NoResult()
    }
}
