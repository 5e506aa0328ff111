import TatraService
import Testing
import PayRPCServiceKit

/// The error kinds' codes are written out, unique, and inside the service's block (the kit checks).
@Test func tatraErrorCodesAreUniqueAndInRange() { #expect(TatraErrorType.codeProblems == []) }

/// Every kind's declared status is one `TatraErrorStatus` spells (the `data` schema's enum), so
/// ``TatraErrorType/defaultStatus`` never falls back.
@Test func everyDeclaredStatusIsATatraErrorStatus() {
    for kind in TatraErrorType.allCases {
        #expect(TatraErrorStatus(rawValue: kind.status.rawValue) != nil, "\(kind): \(kind.status)")
    }
}
