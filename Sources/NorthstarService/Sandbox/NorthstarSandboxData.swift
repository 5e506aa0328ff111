import Foundation
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// What the northstar sandbox answers with: the published test cards and the lifetimes of
/// orders and nonces (on the profile's sandbox clock). Read from `northstar-sandbox.json`, or
/// another file with `--sandbox-data northstar=FILE`. Any other Luhn-valid card of a supported
/// brand is approved.
public struct NorthstarSandboxData: JSONModel, SandboxDataModel, Equatable {
    /// How long an order that was never paid lives (Orders v2: three hours).
    /// - Minimum: 1
    public var orderLifetimeSeconds: Int
    /// How long a nonce from `northstar.tokenizeCard` can be used.
    /// - Minimum: 1
    public var nonceLifetimeSeconds: Int
    /// How long an authorization can be captured (PayPal: 29 days, of which the first three are
    /// its honor period, not modelled); absent means 29 days.
    /// - Minimum: 1
    public var authorizationLifetimeSeconds: Int = 2_505_600
    /// The test cards.
    public var testCards: [TestCard]

    public static let service = "northstar"

    /// The file shipped with the service.
    public static var bundledFile: URL? {
        SandboxData.shippedFile("northstar-sandbox.json", target: "NorthstarService") { Bundle.module }
    }

    /// Every test card is a Luhn-valid number of a brand Orders v2 takes, listed once.
    public func check() throws(SandboxDataProblem) {
        for (index, card) in testCards.enumerated() {
            guard CardRules.passesLuhn(card.number), CardRules.brand(of: card.number).flatMap(CardBrand.init) != nil else {
                throw SandboxDataProblem(
                    "/testCards/\(index)/number",
                    "test card \(card.number.suffix(4)): not a Luhn-valid number of a supported brand")
            }
        }
        if let duplicate = MagicTable(testCards, key: \.number).duplicateKeys.first {
            throw SandboxDataProblem("/testCards", "the test card \(duplicate.suffix(4)) is listed twice")
        }
    }
}
