@testable import JournalService
import PayRPCFuzzSupport

/// The journal's URL decoder (``HandoffURL``) on any text: a URL or an `invalidURL` error, never a
/// crash; what it decodes, written back with ``HandoffURL/write(scheme:_:fragment:)``, decodes to
/// the same parameters, and the document's rewrite under another scheme keeps the query.
@main
enum JournalURLFuzz: FuzzTarget {
    static func fuzz(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        guard let url = try? HandoffURL.parse(text, scheme: "opener") else { return }
        _ = try? HandoffRules.check(url)
        let written = HandoffURL.write(scheme: "opener", url.parameters.map { ($0.name, $0.value) }, fragment: nil)
        do {
            let again = try HandoffURL.parse(written, scheme: "opener")
            fuzzCheck(
                again.parameters.map(\.name) == url.parameters.map(\.name)
                    && again.parameters.map(\.value) == url.parameters.map(\.value),
                "parameters of \(text) written as \(written) read back as \(again.parameters)")
        } catch {
            fuzzCheck(false, "\(text) written as \(written) does not read back: \(error)")
        }
        let rewritten = url.rewritten(scheme: "linkPayment", fragment: "opener://")
        do {
            let handOff = try HandoffURL.parse(rewritten, scheme: "linkPayment")
            fuzzCheck(handOff.rawQuery == url.rawQuery, "\(text) rewritten as \(rewritten) has query \(handOff.rawQuery)")
        } catch {
            fuzzCheck(false, "\(text) rewritten as \(rewritten) does not read: \(error)")
        }
    }
}
