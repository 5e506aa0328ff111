@testable import PayRPCCore
import Testing
@testable import PayRPCSecrets

/// The token file of `--auth-token-file`: bad files first, then what each token opens.
@Suite struct AccessTokensTests {
    @Test(arguments: [
        ("", AccessTokensError(line: nil, problem: "no token in the file")),
        ("# only a comment\n\n", AccessTokensError(line: nil, problem: "no token in the file")),
        ("a\nb\na x\n", AccessTokensError(line: 3, problem: "this token is already on an earlier line")),
        ("t *x\n", AccessTokensError(line: 1, problem: "*x: a * may only end a profile pattern")),
        ("t\nu a**\n", AccessTokensError(line: 2, problem: "a**: a * may only end a profile pattern")),
    ])
    func aFileThatCannotBeUsedNamesTheLine(text: String, error: AccessTokensError) {
        #expect(throws: error) { try AccessTokens(parsing: text) }
    }

    @Test func eachTokenOpensItsProfiles() throws {
        let tokens = try AccessTokens(parsing: "  bare  # every profile\r\nscoped\talice ci-* \nstar *\n")
        #expect(tokens.count == 3)
        #expect(tokens.scope(of: "bare")?.allows("anyone") == true)
        let scoped = try #require(tokens.scope(of: "scoped"))
        #expect(scoped.allows("alice") && scoped.allows("ci-") && scoped.allows("ci-42"))
        #expect(!scoped.allows("alice2") && !scoped.allows("default") && !scoped.allows("c"))
        #expect(tokens.scope(of: "star")?.allows("default") == true, "a lone * is every profile")
        #expect(tokens.scope(of: "scope") == nil && tokens.scope(of: "scoped ") == nil && tokens.scope(of: "") == nil)
    }

    @Test func aReloadThatFailsKeepsTheTokensInForce() throws {
        let access = AccessControl(try AccessTokens(parsing: "old\n"))
        #expect(throws: AccessTokensError.self) { try access.reload("") }
        #expect(access.scope(of: "old") != nil)
        #expect(try access.reload("new p\n") == 1)
        #expect(access.scope(of: "old") == nil && access.scope(of: "new")?.allows("p") == true)
    }
}
