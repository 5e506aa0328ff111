/// The rule that tells a secret by its member name, for what no schema declares: an HTTP body of
/// an unknown shape, a value that does not parse, a member a schema does not name, a free-form
/// `JSONValue`. The gateway's schema test holds every declared model to the same rule: a member
/// whose name it matches is declared `x-sensitive` or allowed by name with a reason.
///
/// A name is split into lowercase words (`accessToken`, `access_token`, `Access-Token` and
/// `ACCESS TOKEN` are `access token`; `cvv2` stays one word), and matches when
/// - a word is a PIN, a password, a secret, a token, a security code or a credential: `pin`,
///   `pincode`, `passcode`, `password`, `passwd`, `pwd`, `secret`, `token`, `cvv`, `cvv2`,
///   `cvc`, `cvc2`, `cvn`, `credential` (and their plurals), or the words run `security code`,
///   `api key`, `private key` — masked whole;
/// - it names a card number: the words `card number` (`cardNumber`, `card_number`), `pan`, or a
///   word `number` inside a card object (a member of `card`, `paymentCard`, `card_info`) — all
///   but the last four characters masked.
public enum SensitiveName {
    /// The style a member named `name` is masked in, or nil when the name does not look like a
    /// secret.
    /// - Parameters:
    ///   - name: the member's name.
    ///   - parent: the name of the member whose object holds it, when there is one: a bare
    ///     `number` in a card object is a card number.
    public static func style(ofMember name: String, inObjectNamed parent: String? = nil) -> SensitiveStyle? {
        guard mayMatch(name) else { return nil }
        let words = words(of: name)
        for (index, word) in words.enumerated() {
            if wholeWords.contains(word) { return .whole }
            let next = index + 1 < words.count ? words[index + 1] : nil
            if let next, wholePairs.contains([word, next]) { return .whole }
        }
        for (index, word) in words.enumerated() {
            if cardNumberWords.contains(word) { return .last4 }
            if word == "card", index + 1 < words.count, ["number", "numbers"].contains(words[index + 1]) { return .last4 }
        }
        if words.contains(where: { $0 == "number" || $0 == "numbers" }), let parent, namesCard(parent) { return .last4 }
        return nil
    }

    /// Whether `name` names a card object (`card`, `paymentCard`, `credit_card`, `CardInfo`): its
    /// `number` member is a card number.
    public static func namesCard(_ name: String) -> Bool {
        guard name.utf8.count >= 4, name.lowercased().contains("card") else { return false }
        return words(of: name).contains { $0 == "card" || $0 == "cards" }
    }

    /// The words of `name`, lowercased: split at every character that is not a letter or digit,
    /// where a lowercase letter or digit is followed by a capital (`accessToken`), and before the
    /// last capital of a run followed by a lowercase letter (`CVVCode` → `cvv code`).
    public static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
                continue
            }
            if let last = current.last, character.isUppercase {
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if last.isLowercase || last.isNumber || (last.isUppercase && nextIsLower) {
                    words.append(current.lowercased())
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        return words
    }

    /// Words that make a name a secret masked whole.
    static let wholeWords: Set<String> = [
        "pin", "pins", "pincode", "pincodes", "passcode", "passcodes", "password", "passwords", "passwd", "pwd",
        "secret", "secrets", "token", "tokens", "cvv", "cvv2", "cvc", "cvc2", "cvn", "securitycode", "credential",
        "credentials", "apikey", "privatekey",
    ]
    /// Runs of two words that make a name a secret masked whole.
    static let wholePairs: Set<[String]> = [["security", "code"], ["api", "key"], ["private", "key"]]
    /// Words that name a card number.
    static let cardNumberWords: Set<String> = ["pan", "cardnumber", "cardnumbers"]

    /// A cheap first look: whether the lowercased name contains a fragment of any word the rule
    /// matches, so that most names (`amount`, `currency`) are let through without being split.
    private static func mayMatch(_ name: String) -> Bool {
        let lower = name.lowercased()
        return fragments.contains { lower.contains($0) }
    }

    private static let fragments = [
        "pin", "pass", "pwd", "secret", "token", "cv", "secur", "credential", "key", "pan", "number",
    ]
}
