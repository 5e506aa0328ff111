/// The custom merchant button layouts as the document describes them (sections 3.5.1.8 to
/// 3.5.1.10 and 4.2.6): which views each type packs, and the "More about Pay by Bank app" pop-up.
enum CustomUXLayouts {
    /// The smallest width the document allows, in points.
    static let minimumWidth = 200.0

    /// The text of the "More about Pay by Bank app" pop-up (section 3.5.1.7).
    static let moreAbout = MoreAboutContent(
        headline: ["Use the bank app on your phone to pay at online checkouts.", "No payment details required."],
        stepsTitle: "It works like this:",
        steps: [
            "You choose Pay by Bank app at the checkout.",
            "Confirm payment amount in your mobile bank app.",
            "Happy with everything? Complete payment.",
        ])

    /// The layout of `type` at `width` points.
    static func layout(_ type: CustomUXType, width: Double) -> CustomUXLayout {
        let warnings =
            width < minimumWidth
            ? [
                LayoutWarning(
                    field: "width", minimum: minimumWidth,
                    message: "a width under 200 points may not appear correctly: the views inside keep their fixed sizes")
            ]
            : []
        let logo = LayoutComponent(
            kind: .pbbaLogo, displayed: true, text: "Pay by Bank app",
            note: "The Pay by Bank app logo; the merchant app renders the button and handles its tap.")
        let link = LayoutComponent(
            kind: .moreAboutLink, displayed: true, text: "More about Pay by Bank app",
            note: "Opens the \"More about Pay by Bank app\" pop-up, which guides through the payment journey.")
        let logos = LayoutComponent(
            kind: .bankLogos, displayed: false, text: nil,
            note:
                "CFI logos are a roadmap feature the Operator has disabled: none are displayed, and \"Works with these banking apps\" does not appear."
        )
        let (suffix, name, components, shown): (String, String, [LayoutComponent], MoreAboutContent?) =
            switch type {
            case .none: ("None", "with the PBBA logo", [logo], nil)
            case .moreAbout: ("MoreAbout", "with More about Pay by Bank app link", [logo, link], moreAbout)
            case .bankLogos: ("BankLogos", "with bank logos", [logo, logos], nil)
            case .moreAboutAndBankLogos:
                ("MoreAboutAndBankLogos", "with bank logos and More about Pay by Bank app link", [logo, link, logos], moreAbout)
            }
        return CustomUXLayout(
            type: type, iosEnumValue: "PBBACustomButtonType" + suffix,
            name: "Integrated PBBA Custom iOS Merchant Button " + name,
            width: width, minimumWidth: minimumWidth, components: components,
            fixedSizeSubviews: true, moreAbout: shown, warnings: warnings)
    }
}
