import NorthstarService
import Testing

/// The error kinds' codes are written out, unique, and inside the service's block (the kit checks).
@Test func northstarErrorCodesAreUniqueAndInRange() { #expect(NorthstarErrorKind.codeProblems == []) }
