import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCTestSupport
import Testing

/// A created payment request, as the tests use it.
struct SubmittedRequest {
    let secureToken: String
    let brn: String
    let requestId: String
    let retrievalExpiryInterval: Int
    let expiresAt: String
}

extension TestConnection {
    /// `pbba.submitPaymentRequest` with a normal amount.
    func submit(amount: String = "10.00", reference: String = "Order 1", interval: Int? = nil) async throws -> SubmittedRequest {
        var params: [JSONValue.Member] = [
            .init("amount", .string(amount)), .init("currency", "GBP"),
            .init("reference", .string(reference)),
        ]
        if let interval { params.append(.init("retrievalExpiryInterval", .int(interval))) }
        let result = try await call("pbba.submitPaymentRequest", .object(params))
        return SubmittedRequest(
            secureToken: try #require(result["secureToken"]?.stringValue),
            brn: try #require(result["brn"]?.stringValue),
            requestId: try #require(result["requestId"]?.stringValue),
            retrievalExpiryInterval: try #require(result["retrievalExpiryInterval"]?.intValue),
            expiresAt: try #require(result["expiresAt"]?.stringValue))
    }

    /// `pbba.showPBBAPopup` for a request.
    func showPopup(_ request: SubmittedRequest, expiryInterval: Int? = nil) async throws -> JSONValue {
        try await call(
            "pbba.showPBBAPopup",
            [
                "secureToken": .string(request.secureToken), "brn": .string(request.brn),
                "expiryInterval": .int(expiryInterval ?? request.retrievalExpiryInterval),
            ])
    }

    /// `sandbox.pbba.setBankAppsInstalled`.
    @discardableResult
    func setBankApps(_ count: Int) async throws -> JSONValue {
        try await call("sandbox.pbba.setBankAppsInstalled", ["count": .int(count)])
    }

    /// Expects the call to fail with `code` and, for domain errors, `data.type` == `type`.
    func expectError(
        _ code: Int, type: String? = nil, _ method: String, _ params: JSONValue? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> RPCError? {
        do {
            let result = try await call(method, params)
            Issue.record("\(method) answered \(result.jsonText) instead of error \(code)", sourceLocation: sourceLocation)
            return nil
        } catch let error as RPCError {
            #expect(error.code.rawValue == code, "\(method): \(error)", sourceLocation: sourceLocation)
            if let type {
                #expect(error.data?["type"]?.stringValue == type, sourceLocation: sourceLocation)
            }
            return error
        } catch {
            Issue.record("\(method) failed with \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

extension JSONValue {
    /// The integer, when this is an integral number.
    var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// The boolean, when this is one.
    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The array's elements, when this is an array.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
