import PayRPCJSON
import PayRPCSchema

/// An outgoing HTTP exchange as a journal may record it: headers and bodies with their secrets
/// masked, by the masks the request carries (``HTTPRequest/bodyMask``,
/// ``HTTPRequest/responseMask``) and by header name.
///
/// A JSON body is parsed, masked (``SensitiveMask/masked(_:)``) and written again; a form body
/// (`application/x-www-form-urlencoded`) has each field's value masked by the mask's top-level
/// names or, for names it does not declare, by the name rule; any other body is left as it is. A
/// body without a content type (an answer: ``HTTPResponse`` keeps none) is read as JSON when it
/// starts like JSON and as a form when it looks like one. A body that says it is JSON and does not
/// parse is replaced by a note of its length: it may be a secret cut short.
extension HTTPRequest {
    /// What a masked header value reads.
    public static let maskedHeaderValue = "***"

    /// `headers` with the value of every credential masked to `***`: `Authorization`,
    /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`, and any header whose name
    /// contains `token`, `secret`, `signature`, `password`, `passcode` or `api-key` (letter case
    /// aside). A signature is masked too: it lets whoever holds it replay the message it signs.
    public static func maskedHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        headers.map { header in
            isCredentialHeader(header.name) ? (name: header.name, value: maskedHeaderValue) : header
        }
    }

    /// Whether a header of that name carries a credential (``maskedHeaders(_:)``).
    public static func isCredentialHeader(_ name: String) -> Bool {
        let lower = name.lowercased()
        return credentialHeaders.contains(lower) || credentialHeaderFragments.contains { lower.contains($0) }
    }

    private static let credentialHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]
    private static let credentialHeaderFragments = ["token", "secret", "signature", "password", "passcode", "api-key", "apikey"]

    /// `bytes` with their secrets masked by `mask`, read as `contentType` says (see the type's
    /// overview); the bytes themselves when the mask is empty or the body is neither JSON nor a form.
    public static func maskedBody(_ bytes: [UInt8], contentType: String?, mask: SensitiveMask) -> [UInt8] {
        guard !mask.isEmpty, !bytes.isEmpty else { return bytes }
        switch BodyKind(contentType: contentType, bytes: bytes) {
        case .json:
            guard let value = try? JSONTape(copying: bytes).withRoot({ JSONValue($0) }) else {
                return Array("*** (\(bytes.count) bytes that do not parse as JSON)".utf8)
            }
            var writer = JSONWriter(capacity: bytes.count)
            mask.masked(value).encode(to: &writer)
            return writer.bytes
        case .form:
            return maskedForm(bytes, mask: mask)
        case .other:
            return bytes
        }
    }

    /// This request's headers, masked (``maskedHeaders(_:)``).
    public var headersMasked: [(name: String, value: String)] { Self.maskedHeaders(headers) }

    /// This request's body with its secrets masked by ``bodyMask``; nil when it has none.
    public var maskedBody: [UInt8]? {
        body.map { Self.maskedBody($0, contentType: contentType, mask: bodyMask) }
    }

    /// The body of this request's answer with its secrets masked by ``responseMask``.
    /// - Parameter contentType: the answer's content type, when it is known.
    public func maskedResponseBody(_ response: HTTPResponse, contentType: String? = nil) -> [UInt8] {
        Self.maskedBody(response.body, contentType: contentType, mask: responseMask)
    }

    /// The value of the request's `Content-Type` header, if it has one.
    public var contentType: String? {
        headers.first { $0.name.lowercased() == "content-type" }?.value
    }

    /// A form with every field whose name is a secret to `mask` masked; names, order and the other
    /// fields' bytes as they were.
    static func maskedForm(_ bytes: [UInt8], mask: SensitiveMask) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for (index, field) in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).enumerated() {
            if index > 0 { output.append(UInt8(ascii: "&")) }
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")),
                let style = mask.style(ofTopLevelMember: HTTPForm.decodedComponent(field[..<equals]))
            else {
                output += field
                continue
            }
            let value = HTTPForm.decodedComponent(field[(equals + 1)...])
            output += field[...equals]
            output += Array(HTTPForm.component(style.masked(.string(value)).stringValue ?? SensitiveStyle.wholeText).utf8)
        }
        return output
    }

    /// How a body is read for masking.
    enum BodyKind {
        case json, form, other

        init(contentType: String?, bytes: [UInt8]) {
            if let contentType {
                let media = contentType.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
                if media == "application/json" || media.hasSuffix("+json") {
                    self = .json
                } else if media == "application/x-www-form-urlencoded" {
                    self = .form
                } else {
                    self = .other
                }
                return
            }
            let first = bytes.first {
                ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0)
            }
            if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                self = .json
            } else if bytes.contains(UInt8(ascii: "=")), bytes.allSatisfy(Self.isFormByte) {
                self = .form
            } else {
                self = .other
            }
        }

        /// A byte a form's text may hold: printable ASCII without spaces.
        private static func isFormByte(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
