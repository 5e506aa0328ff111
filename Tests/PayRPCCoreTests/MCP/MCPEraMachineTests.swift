import PayRPCCore
@testable import PayRPCMCP
import Testing
import PayRPCJSON

/// The era of a connection: settled by its first request, kept, and every mismatch refused.
@Suite struct MCPEraMachineTests {
    typealias Machine = MCPEraMachine
    static let stateless = Machine.Envelope.stateless(version: "2026-07-28", hasCapabilities: true)

    @Test func initializeSettlesTheHandshakeEra() {
        var machine = Machine()
        #expect(machine.initialize(requested: "2025-06-18") == .success("2025-06-18"))
        #expect(machine.state == .handshake(version: "2025-06-18"))
        #expect(machine.request(discover: false, envelope: .none) == .answer(.handshake))
        #expect(machine.ping(envelope: .none) == .answer(.handshake))
        guard case .failure(let again) = machine.initialize(requested: "2025-06-18") else {
            Issue.record("accepted twice")
            return
        }
        #expect(again.code == .invalidRequest)
        guard case .refuse(let stateless) = machine.request(discover: false, envelope: Self.stateless) else {
            Issue.record("accepted")
            return
        }
        #expect(stateless.code == .invalidRequest)
        guard case .refuse(let discover) = machine.request(discover: true, envelope: .none) else {
            Issue.record("accepted")
            return
        }
        #expect(discover.code == .invalidParams)
        #expect(machine.state == .handshake(version: "2025-06-18"))
    }

    @Test func anUnknownHandshakeVersionGetsTheLatest() {
        var machine = Machine()
        #expect(machine.initialize(requested: "2024-11-05") == .success("2025-11-25"))
        var other = Machine()
        #expect(other.initialize(requested: nil) == .success("2025-11-25"))
    }

    @Test func aStatelessRequestSettlesTheStatelessEra() {
        var machine = Machine()
        #expect(machine.request(discover: true, envelope: Self.stateless) == .answer(.stateless))
        #expect(machine.state == .stateless)
        guard case .refuse(let bare) = machine.request(discover: false, envelope: .none) else {
            Issue.record("accepted")
            return
        }
        #expect(bare.code == .invalidParams)
        guard case .refuse(let ping) = machine.ping(envelope: .none) else {
            Issue.record("accepted")
            return
        }
        #expect(ping.code == .invalidParams)
        guard case .failure(let initialize) = machine.initialize(requested: "2025-11-25") else {
            Issue.record("accepted")
            return
        }
        #expect(initialize.code.rawValue == -32022)
        #expect(initialize.data?["supported"] == ["2026-07-28"] && initialize.data?["requested"] == "2025-11-25")
    }

    @Test func badEnvelopesDoNotSettleAnything() {
        var machine = Machine()
        guard
            case .refuse(let version) = machine.request(
                discover: true, envelope: .stateless(version: "1999-01-01", hasCapabilities: true))
        else {
            Issue.record("accepted")
            return
        }
        #expect(version.code.rawValue == -32022 && version.data?["requested"] == "1999-01-01")
        guard
            case .refuse(let notString) = machine.request(
                discover: true, envelope: .stateless(version: nil, hasCapabilities: true))
        else {
            Issue.record("accepted")
            return
        }
        #expect(notString.code == .invalidParams)
        guard
            case .refuse(let capabilities) = machine.request(
                discover: false, envelope: .stateless(version: "2026-07-28", hasCapabilities: false))
        else {
            Issue.record("accepted")
            return
        }
        #expect(capabilities.code == .invalidParams)
        #expect(machine.state == .opening)
        #expect(machine.ping(envelope: .none) == .answer(.handshake))
        guard case .refuse(let early) = machine.request(discover: false, envelope: .none) else {
            Issue.record("accepted")
            return
        }
        #expect(early.code == .invalidRequest)
        #expect(machine.state == .opening)
    }
}
