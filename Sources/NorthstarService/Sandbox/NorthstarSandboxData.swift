import Foundation
import PayRPCJSON
import PayRPCSchema

/// What the northstar sandbox answers with: the published test cards and the lifetimes of
/// orders and nonces (on the profile's sandbox clock). Read from `northstar-sandbox.json`, or
/// another file with `--sandbox-data northstar=FILE`. Any other Luhn-valid card of a supported
/// brand is approved.
public struct NorthstarSandboxData: JSONModel, Equatable {
    /// How long an order that was never paid lives (Orders v2: three hours).
    /// - Minimum: 1
    public var orderLifetimeSeconds: Int
    /// How long a nonce from `northstar.tokenizeCard` can be used.
    /// - Minimum: 1
    public var nonceLifetimeSeconds: Int
    /// The test cards.
    public var testCards: [TestCard]

    /// The outcome for a card number.
    func outcome(for number: String) -> CardOutcome {
        testCards.first { $0.number == number }?.outcome ?? .approve
    }

    /// The file shipped with the service.
    public static var bundledFile: URL? {
        Bundle.module.url(forResource: "northstar-sandbox", withExtension: "json")
    }

    /// Reads the data from `file`, or the shipped copy when nil.
    /// - Throws: ``NorthstarSandboxDataError`` naming the file and what is wrong.
    public static func load(from file: URL?) throws -> NorthstarSandboxData {
        guard let url = file ?? bundledFile else {
            throw NorthstarSandboxDataError(file: "northstar-sandbox.json", message: "the bundled file is missing")
        }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw NorthstarSandboxDataError(file: url.path, message: "cannot be read: \(error.localizedDescription)")
        }
        let data: NorthstarSandboxData
        do {
            data = try JSONTape(string: text).withRoot { root throws(JSONDecodingError) in try NorthstarSandboxData(json: root) }
        } catch {
            throw NorthstarSandboxDataError(file: url.path, message: "\(error)")
        }
        for card in data.testCards where !CardRules.passesLuhn(card.number) || CardRules.brand(of: card.number) == nil {
            throw NorthstarSandboxDataError(file: url.path, message: "test card \(card.number.suffix(4)): not a Luhn-valid number of a supported brand")
        }
        return data
    }
}

/// The sandbox data file cannot be used.
public struct NorthstarSandboxDataError: Error, CustomStringConvertible {
    /// The file.
    public let file: String
    /// What is wrong.
    public let message: String
    public var description: String { "\(file): \(message)" }
}
