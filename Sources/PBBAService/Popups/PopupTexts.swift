/// The fixed texts of the library's payment pop-ups (document sections 3.5.1.1 and 3.5.1.2).
enum PopupTexts {
    /// The pop-ups' title.
    static let title = "Pay by Bank app"
    /// The M-COMM pop-up's buttons.
    static let mcommButtons = ["Open banking app", "Get code"]
    /// The error pop-up's retry button.
    static let errorButtons = ["Try again"]
    /// The E-COMM pop-up's steps for paying on another device.
    static let ecommInstructions = [
        "Log in to your mobile banking app.",
        "Find the Pay by Bank app option.",
        "Enter the code to retrieve the payment, then approve it.",
    ]
    /// Recommended maximum lengths of the error pop-up's strings (section 4.2.3.2).
    static let recommendedErrorCodeLength = 5
    static let recommendedErrorTitleLength = 25
    static let recommendedErrorMessageLength = 75
}
