import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema

/// Hands each outgoing HTTP exchange to the call journal, masked before it leaves the client:
/// credentials out of the URL and the headers, the declared secrets out of the bodies
/// (``HTTPRequest/bodyMask``, ``HTTPRequest/responseMask``), each body cut at the journal's limit.
/// Recorded under the profile of the task's ``CallScope`` (a call, or a delivery's background
/// work); an exchange made outside any scope is not recorded.
public enum HTTPExchangeJournal {
    /// Records one try of `request` and what came of it.
    static func record(
        _ request: HTTPRequest, _ outcome: Result<HTTPResponse, HTTPClientError>, started: Date, duration: Double,
        into recorder: any CallRecorder
    ) {
        guard let scope = CallScope.current else { return }
        let limit = recorder.bodyLimit
        let requestBody = request.maskedBody
        var status: Int?, responseBody: [UInt8]?, failure: String?
        switch outcome {
        case .success(let response):
            status = response.status
            responseBody = request.maskedResponseBody(response)
        case .failure(let error):
            failure = error.description
        }
        recorder.exchanged(
            HTTPExchangeRecord(
                scope: scope, method: request.method, url: withoutCredentials(request.url),
                requestHeaders: request.headersMasked,
                requestBody: requestBody.map { Array($0.prefix(limit)) }, status: status,
                responseBody: responseBody.map { Array($0.prefix(limit)) }, failure: failure, attempt: request.attempt,
                started: started, duration: duration, requestBodyBytes: requestBody?.count ?? 0,
                responseBodyBytes: responseBody?.count ?? 0))
    }

    /// Records a try answered without HTTP (a built-in sandbox Web API) as the request it stands
    /// for (its URL on the `sandbox:` scheme), so the journal shows what would have been sent.
    public static func recordStandIn(
        _ request: HTTPRequest, _ outcome: Result<HTTPResponse, HTTPClientError>, started: Date,
        into recorder: (any CallRecorder)?
    ) {
        guard let recorder else { return }
        record(request, outcome, started: started, duration: Date().timeIntervalSince(started), into: recorder)
    }

    /// The URL without a user or password.
    static func withoutCredentials(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            components.user != nil || components.password != nil
        else { return url.absoluteString }
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }
}
