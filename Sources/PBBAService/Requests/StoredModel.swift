import PayRPCJSON
import PayRPCSchema
import PayRPCStore

/// Converts generated models to and from the store's JSON documents, through their generated codecs.
enum StoredModel {
    /// The document of a model.
    static func encode<Model: JSONEncodable>(_ model: Model) -> JSONValue {
        var writer = JSONWriter(capacity: 256)
        model.encode(to: &writer)
        // The generated encoder writes valid JSON; a failure here is a bug, reported as null.
        return (try? JSONValue(parsing: writer.text)) ?? .null
    }

    /// The model a document holds.
    /// - Throws: ``StoreError`` (`invalidDocument`) when it does not decode.
    static func decode<Model: JSONDecodable>(_ type: Model.Type, from value: JSONValue) throws -> Model {
        do {
            let tape = try JSONTape(string: value.jsonText)
            return try Model(json: tape.root)
        } catch {
            throw StoreError(.invalidDocument, "a stored \(Model.self) does not decode: \(error)")
        }
    }
}
