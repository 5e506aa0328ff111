import Foundation
import PayRPCJSON
import PayRPCTestSupport
import Testing
@testable import TatraService

/// The session transcript of `docs/tatra.md`, byte for byte: requests as a client writes them,
/// responses as the server writes them.
@Suite("tatra wire transcript")
struct TranscriptTests {
    static let exchanges: [(request: String, response: String?)] = [
        (#"{"jsonrpc":"2.0","id":1,"method":"tatra.onFlowStart"}"#,
         #"{"jsonrpc":"2.0","id":1,"result":null}"#),
    ]

    @Test("the documented session, byte for byte")
    func transcript() async throws {
        let fixture = try TatraFixture()
        let client = fixture.connect()
        let connection = client.connection
        for (request, expected) in Self.exchanges {
            connection.send(request)
            guard let expected else { continue }
            let line = await connection.nextLine()
            #expect(line == expected, "answer to \(request)")
        }
        withExtendedLifetime(fixture) {}
    }
}
