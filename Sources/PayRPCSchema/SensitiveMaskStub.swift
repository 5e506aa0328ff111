// TEMPORARY stand-in until branch `sensitive` lands (it replaces this file).
import PayRPCJSON

public struct SensitiveMask: Sendable, Equatable {
    public static let none = SensitiveMask()
    public static let byName = SensitiveMask()
    public var isEmpty: Bool { true }
    public func masked(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    let name = member.name.lowercased()
                    if ["pin", "cvv", "cvc", "token", "secret", "password", "cardnumber", "number"].contains(where: {
                        name.contains($0)
                    }) {
                        return JSONValue.Member(member.name, .string("***"))
                    }
                    return JSONValue.Member(member.name, masked(member.value))
                })
        case .array(let items): return .array(items.map(masked))
        default: return value
        }
    }
}
