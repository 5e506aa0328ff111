import Foundation
import PayRPCCore
import PayRPCJSON
import PayRPCSchema
import PayRPCServiceKit

/// What the dotpay sandbox answers with: languages, currencies, the SDK version, the channel
/// catalogue, the magic amounts, and the card numbers registration refuses. Read from
/// `dotpay-sandbox.json`, or another file with `--sandbox-data dotpay=FILE`.
public struct DotpaySandboxData: JSONModel, SandboxDataModel, Equatable {
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
    /// The Masterpass wallet channel's id: its payments ask the app for authorization
    /// (`dotpay.pay {masterpassAuthorization: true}`); none when absent.
    public var masterpassChannelId: Int?
    /// Amounts with a documented outcome.
    public var magicAmounts: [MagicAmount]
    /// How long a `completesLater` payment stays processing.
    /// - Minimum: 1
    public var completionDelaySeconds: Int
    /// Card numbers registration refuses.
    public var refusedCardNumbers: [CardNumber]

    /// The catalogue of the system the profile uses.
    func catalogue(debugMode: Bool) -> [PaymentChannel] {
        debugMode ? (testChannels ?? channels) : channels
    }

    public static let service = "dotpay"

    /// The file shipped with the service.
    public static var bundledFile: URL? {
        SandboxData.shippedFile("dotpay-sandbox.json", target: "DotpayService") { Bundle.module }
    }

    /// The 1Click channel is a channel of both catalogues, the Masterpass channel one of the
    /// production catalogue; no amount is magic twice.
    public func check() throws(SandboxDataProblem) {
        guard channels.contains(where: { $0.id == oneClickChannelId }),
            testChannels?.contains(where: { $0.id == oneClickChannelId }) ?? true
        else {
            throw SandboxDataProblem("/oneClickChannelId", "\(oneClickChannelId) is not a channel")
        }
        if let masterpass = masterpassChannelId, !channels.contains(where: { $0.id == masterpass }) {
            throw SandboxDataProblem("/masterpassChannelId", "\(masterpass) is not a channel")
        }
        if let duplicate = MagicTable(magicAmounts, key: \.amount).duplicateKeys.first {
            throw SandboxDataProblem("/magicAmounts", "the amount \(duplicate) is listed twice")
        }
    }
}
