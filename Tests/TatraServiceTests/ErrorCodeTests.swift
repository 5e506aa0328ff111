import TatraService
import Testing
import PayRPCServiceKit

/// The error kinds' codes are written out, unique, and inside the service's block (the kit checks).
@Test func tatraErrorCodesAreUniqueAndInRange() { #expect(TatraErrorType.codeProblems == []) }
