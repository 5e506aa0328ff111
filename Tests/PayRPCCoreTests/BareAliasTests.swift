@testable import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCTestSupport
import Testing

// Methods of two made-up services, to see which bare names the router derives.
private enum AlphaPay: RPCMethod, TestDocumented {
    static let name = "alpha.pay"
    static let aliases = ["alpha.makePayment"]
    typealias Params = NoParams
    typealias Result = String
}

private enum AlphaStatus: RPCMethod, TestDocumented {
    static let name = "alpha.status"
    typealias Params = NoParams
    typealias Result = String
}

private enum BetaStatus: RPCMethod, TestDocumented {
    static let name = "beta.status"
    typealias Params = NoParams
    typealias Result = String
}

private enum BetaRefund: RPCMethod, TestDocumented {
    static let name = "beta.refund"
    static let aliases = ["refund"]
    typealias Params = NoParams
    typealias Result = String
}

private enum SandboxAlphaApprove: RPCMethod, TestDocumented {
    static let name = "sandbox.alpha.approve"
    static let traits: MethodTraits = [.sandboxOnly]
    typealias Params = NoParams
    typealias Result = String
}

private struct TwoServices: RPCService {
    func register(on router: inout RouterBuilder) {
        router.registerInline(AlphaPay.self) { _, _ in "alpha.pay" }
        router.registerInline(AlphaStatus.self) { _, _ in "alpha.status" }
        router.registerInline(BetaStatus.self) { _, _ in "beta.status" }
        router.registerInline(BetaRefund.self) { _, _ in "beta.refund" }
        router.registerInline(SandboxAlphaApprove.self) { _, _ in "approve" }
    }
}

/// The naming rule's bare names, derived by the router from what every service declares.
@Suite struct BareAliasTests {
    @Test("a name part unique across services is a bare alias; a shared one is nobody's")
    func derivedBareNames() async throws {
        var builder = RouterBuilder()
        TwoServices().register(on: &builder)
        let router = try builder.build(validateResults: false)
        #expect(router.method(named: "pay")?.name == "alpha.pay")
        #expect(router.method(named: "makePayment")?.name == "alpha.pay")
        #expect(router.method(named: "status") == nil)
        #expect(router.method(named: "approve") == nil)
        #expect(router.method(named: "refund")?.name == "beta.refund")
        let aliases = router.methods.first { $0.name == "alpha.pay" }?.aliases
        #expect(aliases == ["alpha.makePayment", "pay", "makePayment"])
        // Counted by method, not by name: the aliases add none.
        #expect(router.methodCount == router.methods.count)

        let harness = try EngineHarness(services: [TwoServices()])
        let connection = harness.connect()
        #expect(try await connection.call("pay") == "alpha.pay")
        #expect(try await connection.call("makePayment") == "alpha.pay")
        #expect(await #expect(throws: RPCError.self) { try await connection.call("status") }?.code == .methodNotFound)
    }

    @Test("the bare name of a method's name: one prefix, a tail without dots, ASCII or not")
    func bareNameOfEachShape() {
        #expect(BareAliases.bareName(of: "alpha.pay") == "pay")
        #expect(BareAliases.bareName(of: "alpha.makePayment") == "makePayment")
        for name in ["pay", ".pay", "alpha.", ".", "", "a.b.c", "a..b"] {
            #expect(BareAliases.bareName(of: name) == nil, "\(name)")
        }
        // Not ASCII: by Characters, as before the bytes' fast path.
        #expect(BareAliases.bareName(of: "caf\u{E9}.pay") == "pay")
        #expect(BareAliases.bareName(of: "alpha.p\u{E9}y") == "p\u{E9}y")
        #expect(BareAliases.bareName(of: "alpha.\u{301}pay") == nil)
        #expect(BareAliases.bareName(of: "\u{E9}.b.c") == nil)
    }
}
