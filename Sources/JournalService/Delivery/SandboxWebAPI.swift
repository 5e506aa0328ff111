#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCCore
import PayRPCJSON
import PayRPCSandbox
import PayRPCServiceKit

/// The built-in sandbox Web API: where entries go when no backend URL is configured and the
/// server runs its sandboxes, so that nothing waits for a backend that never comes.
///
/// Each POST takes the next answer a tester set with `sandbox.journal.setNextAnswers` (kept in the
/// store, in order, for every connection of the profile, across restarts); with none set it
/// accepts: `/payments/` answers `200 {"id": "pay_…"}` (16 characters from the profile's seeded
/// stream `journal.sandboxPaymentId`), `/journals/` answers `200 {}`. Its answers go through the
/// same rules as a real backend's: a network failure or a hang is retried, a server error is
/// reported with `journal.syncFailed`.
struct SandboxWebAPI: Sendable {
    let journal: JournalBook
    let sandbox: SandboxControls
    /// How long a hang lasts: the HTTP client's timeout, after which the POST has timed out.
    let timeout: TimeInterval

    /// The answer to one POST to `endpoint` for the profile.
    /// - Throws: the store's error when the next answer cannot be taken.
    func post(_ endpoint: WebAPIEndpoint, profile: String) async throws -> Result<HTTPResponse, HTTPClientError> {
        let answer = try await journal.takeSandboxAnswer(profile: profile) ?? SandboxAnswer(outcome: .accept)
        switch answer.outcome {
        case .accept:
            let body = answer.body ?? defaultBody(endpoint, profile: profile)
            return .success(HTTPResponse(status: answer.httpStatus ?? 200, body: Array(body.jsonText.utf8)))
        case .serverError:
            let body: JSONValue = ["message": .string(answer.message ?? "sandbox server error")]
            return .success(HTTPResponse(status: answer.httpStatus ?? 500, body: Array(body.jsonText.utf8)))
        case .networkFailure:
            return .failure(.unreachable("the sandbox Web API dropped the connection"))
        case .hang:
            try? await Task.sleep(for: .seconds(timeout))
            return .failure(.timedOut(seconds: timeout))
        }
    }

    /// What an accept answers when the tester gave no body.
    private func defaultBody(_ endpoint: WebAPIEndpoint, profile: String) -> JSONValue {
        switch endpoint {
        case .payments:
            let id = sandbox.string(
                profile: profile, stream: "journal.sandboxPaymentId", length: 16,
                alphabet: "abcdefghijklmnopqrstuvwxyz0123456789")
            return ["id": .string("pay_" + id)]
        case .journals:
            return .object([])
        }
    }
}
