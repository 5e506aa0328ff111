/// The merchant library's decision when `showPBBAPopup` is called (document sections 2.2,
/// 3.5.1.1, 3.5.1.2 and 4.2.3.1), as a pure function of the device.
struct PopupDecision: Equatable {
    /// What the library does.
    let action: PopupAction
    /// Whether the remembered flag must be cleared: it was set, but no bank app is left to open
    /// automatically (the Consumer uninstalled them all).
    let clearRemembered: Bool

    /// - Parameters:
    ///   - bankApps: PBBA-enabled bank apps installed on the device.
    ///   - remembered: the `com.zapp.bankapp.remembered` flag.
    static func decide(bankApps: Int, remembered: Bool) -> PopupDecision {
        if bankApps <= 0 { return PopupDecision(action: .showECommPopup, clearRemembered: remembered) }
        if remembered { return PopupDecision(action: .openBankingApp, clearRemembered: false) }
        return PopupDecision(action: .showMCommPopup, clearRemembered: false)
    }
}
