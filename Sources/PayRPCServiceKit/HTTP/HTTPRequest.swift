#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PayRPCJSON
import PayRPCSchema

/// One outgoing HTTP request: method, URL, headers and body bytes.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, ...
    public var method: String
    /// Where it goes.
    public var url: URL
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body, if any.
    public var body: [UInt8]?
    /// Which try of the request this is (1: the first), as the call journal records it.
    public var attempt = 1
    /// The secrets of ``body``, for what records the exchange (``maskedBody``): those its model
    /// declares when it was made from one (``init(_:_:json:headers:)``), else the name rule.
    public var bodyMask: SensitiveMask = .byName
    /// The secrets of the answer's body (``maskedResponseBody(_:)``): the name rule unless the
    /// answer's model is declared with ``expecting(_:)``.
    public var responseMask: SensitiveMask = .byName

    /// A request without a body.
    public init(_ method: String, _ url: URL, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = nil
    }

    /// A request whose body is `model` as its codec writes it, with `Content-Type: application/json`.
    ///
    /// The body's secrets are those the model's schema declares (``bodyMask``), when the model
    /// provides one (every generated model does); the name rule otherwise.
    public init(_ method: String, _ url: URL, json model: some JSONEncodable, headers: [(name: String, value: String)] = []) {
        var writer = JSONWriter(capacity: 256)
        model.encode(to: &writer)
        self.method = method
        self.url = url
        self.headers = [("Content-Type", "application/json")] + headers
        self.body = writer.bytes
        self.bodyMask = HTTPModelMasks.mask(of: type(of: model))
    }

    /// This request, with the model of its answer declared: the answer's body is masked by the
    /// secrets that model declares (``responseMask``; the OAuth2 token answer's `access_token`).
    public func expecting(_ answer: any JSONSchemaProvider.Type) -> HTTPRequest {
        var request = self
        request.responseMask = HTTPModelMasks.mask(of: answer)
        return request
    }

    /// A request whose body is `form`, `application/x-www-form-urlencoded` (an OAuth2 token request).
    public init(_ method: String, _ url: URL, form: String, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.url = url
        self.headers = [("Content-Type", "application/x-www-form-urlencoded")] + headers
        self.body = Array(form.utf8)
    }
}

/// An HTTP answer: its status and body.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The body's bytes.
    public var body: [UInt8]

    /// An answer of `status` with `body`.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body read as `T` by its codec.
    /// - Throws: ``HTTPClientError/undecodable(status:pointer:message:)`` when it is not JSON of that shape.
    public func decode<T: JSONDecodable>(_ type: T.Type) throws(HTTPClientError) -> T {
        do {
            let tape = try JSONTape(copying: body)
            return try tape.withRoot { root throws(JSONDecodingError) in try T(json: root) }
        } catch let error as JSONDecodingError {
            throw .undecodable(status: status, pointer: error.pointer, message: error.message)
        } catch {
            throw .undecodable(status: status, pointer: "", message: "the body is not JSON")
        }
    }

    /// The body as text (the first 500 bytes), for an error that carries no JSON.
    public var text: String { String(decoding: body.prefix(500), as: UTF8.self) }
}

/// Why an outgoing call got no usable answer.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: the connection failed or dropped.
    case unreachable(String)
    /// No answer within the client's timeout, in seconds.
    case timedOut(seconds: TimeInterval)
    /// An answer whose body is not what was expected.
    case undecodable(status: Int, pointer: String, message: String)

    public var description: String {
        switch self {
        case .unreachable(let reason): "unreachable: \(reason)"
        case .timedOut(let seconds):
            "no answer within \(seconds == seconds.rounded() && seconds < 1e15 ? String(Int64(seconds)) : String(seconds)) s"
        case .undecodable(let status, let pointer, let message):
            "HTTP \(status): the body does not read\(pointer.isEmpty ? "" : " at \(pointer)"): \(message)"
        }
    }
}
