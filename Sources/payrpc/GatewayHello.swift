import ArgumentParser
import Foundation
import PayRPCJSON

/// The `rpc.hello` that `payrpc call` and `payrpc calls` send first: the token read from
/// `--token-file` and the `--profile`, when either is given.
enum GatewayHello {
    /// The params of the hello, or nil when there is nothing to say (no hello is sent).
    /// - Throws: `ValidationError` when the token file cannot be read.
    static func params(tokenFile: String?, profile: String?) throws -> JSONValue? {
        var members: [JSONValue.Member] = []
        if let tokenFile {
            guard
                let token = try? String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)
            else {
                throw ValidationError("cannot read \(tokenFile)")
            }
            members.append(.init("token", .string(token)))
        }
        if let profile { members.append(.init("profile", .string(profile))) }
        return members.isEmpty ? nil : .object(members)
    }
}
