import Foundation
import Logging
@testable import PayRPCCore
import PayRPCFuzzSupport
import PayRPCGateway
import PayRPCJSON
import PayRPCSchema

/// The one-pass params decoders (``CheckedJSONDecodable``, generated per params model) against
/// the pair they replace on the hot path: the params schema's validator, then the codec. For any
/// params object, the engine's answer through the decoder (the method entry's `prepare`: the
/// checking decoder, and the validator and codec when it refuses) is the pair's answer: the same
/// model (compared by what its codec writes) or the same error, violation by violation (pointer,
/// keyword and message). And the decoder alone never accepts what the pair refuses.
///
/// Input: byte 0 picks the method (by name order, as `rpc.discover` lists them); the rest is the
/// params' JSON text. Only objects without `_meta` are the decoders' input (the engine maps
/// positions onto names and sets `_meta` aside first).
@main
enum DecodersFuzz: FuzzTarget {
    /// One method's comparison.
    struct Decoder {
        let name: String
        let check: (JSONElement) -> Void
    }

    nonisolated(unsafe) static var decoders: [Decoder] = []

    /// Builds the router of every service, as `payrpc schemas` does, and one comparison per method.
    static func setUp() {
        let configuration = GatewayConfiguration(dataDirectory: FileManager.default.temporaryDirectory)
        let router: Router
        do {
            router = try SchemaExport.describingRouter(configuration: configuration, logger: Logger(label: "fuzz"))
        } catch {
            fatalError("the router does not build: \(error)")
        }
        for method in router.methods {
            decoders.append(decoder(method.declaration, router))
        }
    }

    static func decoder<M: RPCMethod>(_ method: M.Type, _ router: Router) -> Decoder {
        guard let entry = router.entry(named: M.name) else { fatalError("\(M.name) is not in the router") }
        return Decoder(name: M.name) { element in
            let engine = answer { () throws(RPCError) in try entry.prepare(element).canonicalParams() }
            let pair = answer { () throws(RPCError) in
                let violations = router.paramsViolations(method: M.name, params: element) ?? []
                guard violations.isEmpty else { throw RPCError.invalidParams(violations) }
                return RouterBuilder.canonical(try RouterBuilder.decodeParams(M.self, element))
            }
            fuzzCheck(
                engine == pair,
                "\(M.name): the engine answers \(text(engine)), validating then decoding \(text(pair)), for \(element.rawText)")
            if let checking = M.Params.self as? any CheckedJSONDecodable.Type {
                alone(checking, element, pair, M.name)
            } else {
                fuzzCheck(!entry.checksParams, "\(M.name): the entry checks params its decoder cannot")
            }
        }
    }

    /// The checking decoder by itself: nil, or the pair's model.
    static func alone<P: CheckedJSONDecodable>(_ type: P.Type, _ element: JSONElement, _ pair: Answer, _ name: String) {
        guard let params = P.checking(element) else { return }
        guard let encodable = params as? any JSONEncodable else { return }
        fuzzCheck(
            pair == .model(RouterBuilder.canonical(encodable)),
            "\(name): the checking decoder accepts \(element.rawText), which the pair answers \(text(pair))")
    }

    /// What a call gets: the params as their codec writes them, or the error's JSON.
    enum Answer: Equatable {
        case model([UInt8])
        case error([UInt8])
    }

    static func answer(_ body: () throws(RPCError) -> [UInt8]) -> Answer {
        do {
            return .model(try body())
        } catch {
            var writer = JSONWriter()
            error.encode(to: &writer)
            return .error(writer.bytes)
        }
    }

    static func text(_ answer: Answer) -> String {
        switch answer {
        case .model(let bytes): "the params " + String(decoding: bytes, as: UTF8.self)
        case .error(let bytes): "the error " + String(decoding: bytes, as: UTF8.self)
        }
    }

    static func fuzz(_ input: UnsafeRawBufferPointer) {
        var reader = FuzzBytes(input)
        let decoder = decoders[Int(reader.byte()) % decoders.count]
        guard let tape = try? JSONTape(copying: reader.rest) else { return }
        tape.withRoot { root in
            guard root.kind == .object, root.member("_meta") == nil else { return }
            decoder.check(root)
        }
    }
}
