import Foundation
import Logging
@testable import PayRPCCore
import PayRPCFuzzSupport
import PayRPCGateway
import PayRPCJSON
import PayRPCSchema

/// Every generated codec of the gateway's methods (params and result) and notifications: what a
/// codec decodes, it encodes to JSON that it decodes again to a value that encodes to the same
/// bytes. A value its schema accepts, the codec decodes, and what the codec writes from it the
/// schema accepts too.
///
/// Input: byte 0 picks the codec (method params, method result, notification payload, in the
/// order of ``codecs``); the rest is the JSON text to decode.
@main
enum CodecsFuzz: FuzzTarget {
    /// One codec under test: decodes, and when it can, round-trips; nil when it cannot decode.
    struct Codec {
        let name: String
        let check: (JSONElement) -> Void
    }

    nonisolated(unsafe) static var codecs: [Codec] = []

    /// Builds the router of every service, as `payrpc schemas` does, and lists their codecs.
    static func setUp() {
        var configuration = GatewayConfiguration(dataDirectory: FileManager.default.temporaryDirectory)
        configuration.engine.validateResults = true
        let router: Router
        do {
            router = try SchemaExport.describingRouter(configuration: configuration, logger: Logger(label: "fuzz"))
        } catch {
            fatalError("the router does not build: \(error)")
        }
        for method in router.methods {
            codecs.append(params(method.declaration, router))
            codecs.append(result(method.declaration, router))
        }
        for notification in router.notifications {
            codecs.append(payload(notification.declaration))
        }
    }

    static func params<M: RPCMethod>(_ method: M.Type, _ router: Router) -> Codec {
        Codec(name: "\(M.name) params") { element in
            // The codec decodes what the engine hands it: by-position params (an array) named,
            // `null` read as absent, `_meta` taken out (``NormalizedParams``, as the router
            // does before validating). Fuzzing the raw element instead reported the target's
            // own mismatch twice (the third CI run's `[]`, a later run's `null`).
            guard let descriptor = router.method(named: M.name),
                let normalized = try? NormalizedParams(element, method: descriptor)
            else { return }
            withExtendedLifetime(normalized) {
                roundTrip(M.Params.self, normalized.element, "\(M.name) params") {
                    router.paramsViolations(method: M.name, params: $0) ?? []
                }
            }
        }
    }

    static func result<M: RPCMethod>(_ method: M.Type, _ router: Router) -> Codec {
        Codec(name: "\(M.name) result") { element in
            roundTrip(M.Result.self, element, "\(M.name) result") { router.resultViolations(method: M.name, result: $0) ?? [] }
        }
    }

    static func payload<N: RPCNotification>(_ notification: N.Type) -> Codec {
        Codec(name: "\(N.name) payload") { element in roundTrip(N.Payload.self, element, "\(N.name) payload", schema: nil) }
    }

    static func fuzz(_ input: UnsafeRawBufferPointer) {
        var reader = FuzzBytes(input)
        let codec = codecs[Int(reader.byte()) % codecs.count]
        guard let tape = try? JSONTape(copying: reader.rest) else { return }
        tape.withRoot { codec.check($0) }
    }

    /// decode → encode → decode → encode: the two encodings are equal; a schema-valid input
    /// decodes, and its encoding is schema-valid.
    static func roundTrip<Model: JSONCodable>(
        _ type: Model.Type, _ element: JSONElement, _ name: String,
        schema: ((JSONElement) -> [SchemaViolation])?
    ) {
        let inputViolations = schema?(element)
        let value: Model
        do {
            value = try Model(json: element)
        } catch {
            fuzzCheck(
                inputViolations?.isEmpty != true,
                "\(name): the schema accepts \(element.rawText) but the codec does not: \(error)")
            return
        }
        var writer = JSONWriter()
        value.encode(to: &writer)
        let first = writer.bytes
        guard let tape = try? JSONTape(copying: first) else {
            fuzzCheck(false, "\(name): encoded invalid JSON \(writer.text)")
            return
        }
        tape.withRoot { encoded in
            if inputViolations?.isEmpty == true, let violations = schema?(encoded) {
                fuzzCheck(
                    violations.isEmpty,
                    "\(name): encoded \(writer.text) from \(element.rawText), which breaks the schema: \(violations)")
            }
            do {
                let again = try Model(json: encoded)
                var second = JSONWriter()
                again.encode(to: &second)
                fuzzCheck(second.bytes == first, "\(name): \(writer.text) then \(second.text) from \(element.rawText)")
            } catch {
                fuzzCheck(false, "\(name): cannot decode its own \(writer.text) (from \(element.rawText)): \(error)")
            }
        }
    }
}
