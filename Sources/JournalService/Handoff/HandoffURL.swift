import Foundation

/// The URL-scheme hand-off of the document: reading `opener://open?...` URLs, checking their
/// fixed values, and writing `linkPayment://open?...#opener://` ones.
///
/// Parsing uses Foundation's `URLComponents` (its `percentEncodedQueryItems` keep each value's
/// bytes as sent); what the document needs beyond it is written here: rewriting the scheme and
/// appending `#opener://` around the received query *as received*, so the Payment Application
/// gets the caller's bytes unchanged, and percent-encoding typed values with RFC 3986's
/// unreserved set only (`URLComponents` leaves `&`, `=`, `+` unencoded in values, which would
/// split a name like `a&b=c`).
struct HandoffURL: Equatable {
    /// The scheme (`opener`, `linkPayment`).
    var scheme: String
    /// The host (`open`).
    var host: String
    /// The query as received: percent-encoded, in order.
    var rawQuery: String
    /// The parameters, decoded, in order.
    var parameters: [(name: String, value: String)]
    /// The fragment, if any (`opener://` on a hand-off URL).
    var fragment: String?

    static func == (left: HandoffURL, right: HandoffURL) -> Bool {
        left.scheme == right.scheme && left.host == right.host && left.rawQuery == right.rawQuery
            && left.fragment == right.fragment
    }

    /// The value of `name`, decoded.
    func value(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// Reads `text`, which must have scheme `scheme`.
    /// - Throws: ``JournalError`` `invalidURL` naming what is wrong.
    static func parse(_ text: String, scheme expected: String) throws(JournalError) -> HandoffURL {
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw JournalError(.invalidURL, "not a URL: \(text.prefix(200))", parameter: "url")
        }
        guard scheme.lowercased() == expected.lowercased() else {
            throw JournalError(
                .invalidURL, "the scheme must be \(expected)", parameter: "scheme", expected: expected, found: scheme)
        }
        guard components.host == "open" else {
            throw JournalError(
                .invalidURL, "the host must be open", parameter: "host", expected: "open", found: components.host ?? "")
        }
        var parameters: [(name: String, value: String)] = []
        for item in components.percentEncodedQueryItems ?? [] {
            guard let name = item.name.removingPercentEncoding, let value = (item.value ?? "").removingPercentEncoding else {
                throw JournalError(.invalidURL, "a parameter is not valid percent-encoded UTF-8", parameter: item.name)
            }
            if parameters.contains(where: { $0.name == name }) {
                throw JournalError(.invalidURL, "\(name) is given twice", parameter: name)
            }
            parameters.append((name, value))
        }
        return HandoffURL(
            scheme: scheme, host: "open", rawQuery: components.percentEncodedQuery ?? "",
            parameters: parameters, fragment: components.fragment)
    }

    /// `value` percent-encoded with RFC 3986's unreserved characters left as they are.
    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `scheme://open?name=value&...#fragment` with every name and value encoded.
    static func write(scheme: String, _ parameters: [(String, String)], fragment: String?) -> String {
        let query = parameters.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        return "\(scheme)://open?\(query)" + (fragment.map { "#\($0)" } ?? "")
    }

    /// The same query under another scheme, with `fragment`: the document's rewrite
    /// (`opener` → `linkPayment`, `#opener://` appended), byte for byte.
    func rewritten(scheme: String, fragment: String?) -> String {
        "\(scheme)://\(host)?\(rawQuery)" + (fragment.map { "#\($0)" } ?? "")
    }
}
