#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `application/x-www-form-urlencoded` bodies, as an HTML form (and a payment gateway's
/// notification, such as Dotpay's URLC) sends them: the fields in the given order, each name and
/// value percent-encoded byte by byte (UTF-8), a space as `+`.
///
/// The encoding is the WHATWG URL standard's (`application/x-www-form-urlencoded serializer`):
/// ASCII letters, digits and `*-._` stay as they are, every other byte is `%XX`.
public enum HTTPForm {
    /// The body of `fields`, in their order.
    public static func encode(_ fields: [(name: String, value: String)]) -> String {
        var bytes: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "&")) }
            append(field.name, to: &bytes)
            bytes.append(UInt8(ascii: "="))
            append(field.value, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` encoded as one name or value of a form.
    static func component(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A name or value of a form read back: `+` is a space, `%XX` a byte; a `%` not followed by
    /// two hex digits stays as it is.
    static func decodedComponent(_ encoded: ArraySlice<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < encoded.endIndex,
                let high = hexValue(encoded[index + 1]), let low = hexValue(encoded[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                bytes.append(byte)
            case UInt8(ascii: " "):
                bytes.append(UInt8(ascii: "+"))
            default:
                bytes += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
        }
    }
}

extension HTTPRequest {
    /// A request whose body is `fields` as a form (``HTTPForm``), `application/x-www-form-urlencoded`.
    public init(
        _ method: String, _ url: URL, formFields fields: [(name: String, value: String)],
        headers: [(name: String, value: String)] = []
    ) {
        self.init(method, url, form: HTTPForm.encode(fields), headers: headers)
    }
}
