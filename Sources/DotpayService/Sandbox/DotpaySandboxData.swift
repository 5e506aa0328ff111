import Foundation
import PayRPCJSON
import PayRPCSchema

/// What the dotpay sandbox answers with: languages, currencies, the SDK version, the channel
/// catalogue, the magic amounts, and the card numbers registration refuses. Read from
/// `dotpay-sandbox.json`, or another file with `--sandbox-data dotpay=FILE`.
public struct DotpaySandboxData: JSONModel, Equatable {
    /// The SDK version (`sdkShortVersionString`).
    public var sdkVersion: String
    /// The languages of the flow.
    public var languages: [String]
    /// The currencies Dotpay takes.
    public var currencies: [String]
    /// The channel catalogue of the production system.
    public var channels: [PaymentChannel]
    /// The channel catalogue of the test system (`dotpay.setDebugMode {debugMode: true}`); the
    /// production one when absent.
    public var testChannels: [PaymentChannel]?
    /// The 1Click card channel's id.
    public var oneClickChannelId: Int
    /// Amounts with a documented outcome.
    public var magicAmounts: [MagicAmount]
    /// How long a `completesLater` payment stays processing.
    /// - Minimum: 1
    public var completionDelaySeconds: Int
    /// Card numbers registration refuses.
    public var refusedCardNumbers: [String]

    /// The catalogue of the system the profile uses.
    func catalogue(debugMode: Bool) -> [PaymentChannel] {
        debugMode ? (testChannels ?? channels) : channels
    }

    /// The outcome of a payment of `amount`, nil for an ordinary one.
    func outcome(for amount: Amount) -> PaymentOutcome? {
        magicAmounts.first { $0.amount == amount }?.outcome
    }

    /// The file shipped with the service.
    public static var bundledFile: URL? { Bundle.module.url(forResource: "dotpay-sandbox", withExtension: "json") }

    /// Reads the data from `file`, or the shipped copy when nil.
    /// - Throws: ``DotpaySandboxDataError``.
    public static func load(from file: URL?) throws -> DotpaySandboxData {
        guard let url = file ?? bundledFile else {
            throw DotpaySandboxDataError(file: "dotpay-sandbox.json", message: "the bundled file is missing")
        }
        do {
            let text = try String(contentsOf: url, encoding: .utf8)
            let data = try JSONTape(string: text).withRoot { root throws(JSONDecodingError) in try DotpaySandboxData(json: root) }
            guard data.channels.contains(where: { $0.id == data.oneClickChannelId }),
                  data.testChannels?.contains(where: { $0.id == data.oneClickChannelId }) ?? true else {
                throw DotpaySandboxDataError(file: url.path, message: "oneClickChannelId \(data.oneClickChannelId) is not a channel")
            }
            return data
        } catch let error as DotpaySandboxDataError {
            throw error
        } catch {
            throw DotpaySandboxDataError(file: url.path, message: "\(error)")
        }
    }
}

/// The sandbox data file cannot be used.
public struct DotpaySandboxDataError: Error, CustomStringConvertible {
    /// The file.
    public let file: String
    /// What is wrong.
    public let message: String
    public var description: String { "\(file): \(message)" }
}
