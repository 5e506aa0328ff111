// TEMPORARY stand-in until branch `sensitive` lands (it replaces this file).
import PayRPCJSON
import PayRPCSchema

enum HTTPExchangeMasking {
    static func maskedHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        headers.map { header in
            ["authorization", "cookie", "x-api-key"].contains(header.name.lowercased()) ? (header.name, "***") : header
        }
    }

    static func maskedBody(_ bytes: [UInt8], contentType: String?, mask: SensitiveMask) -> [UInt8] {
        guard let value = JSONValue(parsingIfValid: String(decoding: bytes, as: UTF8.self)) else { return bytes }
        return Array(mask.masked(value).jsonText.utf8)
    }
}

extension HTTPRequest {
    var bodyMask: SensitiveMask { .byName }
    var responseMask: SensitiveMask { .byName }
}
