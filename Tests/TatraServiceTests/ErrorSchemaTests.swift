import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import Testing
@testable import TatraService
import PayRPCServiceKit

/// Every factory error's `data` matches the schema its descriptor publishes.
@Suite("tatra error schemas")
struct ErrorSchemaTests {
    static let samples: [TatraError] = [
        .general(title: "t", message: "m"),
        .general(title: "t", message: "m", status: .notFound),
        .authRequired(title: "t", showConditions: true),
        .executePayment(title: "t", message: "m"),
        .executePayment(title: "t", message: "m", status: .failedPrecondition),
        .amountLimit(title: "t", message: "m"),
        .sameRecipient(title: "t", message: "m"),
        .serviceUnavailable(title: "t", message: "m"),
        .network(title: "t", message: "m"),
        .wrongPin(title: "t", applicationBlocked: false),
        .wrongPin(title: "t", applicationBlocked: true),
        .bankTempOOS(paymentId: "TB-000001"),
        .missingContactPermission(title: "t", subtitle: "s", uri: URL(string: "app-settings:")!),
    ]

    static let descriptors: [TatraErrorType: RPCErrorDescriptor] = [
        .general: TatraErrorType.general.descriptor, .authRequired: TatraErrorType.authRequired.descriptor,
        .executePayment: TatraErrorType.executePayment.descriptor, .amountLimit: TatraErrorType.amountLimit.descriptor,
        .sameRecipient: TatraErrorType.sameRecipient.descriptor,
        .serviceUnavailable: TatraErrorType.serviceUnavailable.descriptor, .network: TatraErrorType.network.descriptor,
        .wrongPin: TatraErrorType.wrongPin.descriptor, .bankTempOOS: TatraErrorType.bankTempOOS.descriptor,
        .missingContactPermission: TatraErrorType.missingContactPermission.descriptor,
    ]

    @Test("data matches the descriptor's schema; code and message match the descriptor", arguments: samples)
    func dataMatchesSchema(_ error: TatraError) throws {
        let descriptor = try #require(Self.descriptors[error.type])
        let wire = error.rpcError
        #expect(wire.code == descriptor.code)
        #expect(wire.message == descriptor.message)
        let data = try #require(wire.data)
        let schemaType = try #require(descriptor.data)
        let schema = try CompiledSchema(schemaType.standaloneSchema)
        #expect(schema.validate(data).isEmpty, "\(schema.validate(data))")
        #expect(data["type"] == .string(error.type.rawValue))
        #expect(data["fatal"] == .bool(error.isFatal))
    }

    @Test("every factory error has a descriptor")
    func everyTypeDescribed() {
        #expect(Set(Self.descriptors.keys) == Set(TatraErrorType.allCases))
    }

    @Test("each method lists the errors the sandbox can make it return")
    func methodErrors() {
        func codes(_ errors: [RPCErrorDescriptor]) -> Set<Int> { Set(errors.map(\.code.rawValue)) }
        let bank: Set<Int> = [-33000, -33005, -33006]
        #expect(codes(ExecutePayment.errors) == bank.union([-33002, -33003, -33004]))
        #expect(codes(AuthorizePayment.errors) == bank.union([-33002, -33007, -33008]))
        #expect(codes(ResubmitPayment.errors) == bank.union([-33008]))
        #expect(codes(FetchBalance.errors) == bank.union([-33001]))
        #expect(codes(GetIban.errors) == bank.union([-33001]))
        #expect(codes(Authorize.errors) == bank.union([-33007]))
        #expect(codes(FetchTopContacts.errors) == bank.union([-33009]))
        #expect(codes(FetchContacts.errors) == bank.union([-33009]))
        #expect(codes(FetchSetupData.errors) == bank)
        #expect(OnFlowStart.errors.isEmpty && OnFlowStop.errors.isEmpty)
    }
}
