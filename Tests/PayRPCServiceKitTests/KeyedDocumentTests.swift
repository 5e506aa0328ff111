import PayRPCJSON
import PayRPCServiceKit
import PayRPCStore
import PayRPCTestSupport
import PayRPCSQLite
import Testing

/// The kit's keyed documents on a real SQLite store: read, listed, changed and forgotten by key,
/// in their type's namespace and their profile only.
@Suite struct KeyedDocumentTests {
    @Test(
        "bad input first: an unknown key reads nil and deletes nothing; a stored document that does not decode fails by its key")
    func unknownAndBadDocuments() async throws {
        let store = try await SQLiteStoreFactory().makeStore(maximumBytes: nil)
        try await store.transaction("test") { documents in
            #expect(try documents.get(Note.self, profile: "p", key: "none") == nil)
            #expect(try !documents.contains(Note.self, profile: "p", key: "none"))
            try documents.delete(Note.self, profile: "p", key: "none")
            try documents.put(42, profile: "p", namespace: Note.namespace, key: "bad")
        }
        let error = await #expect(throws: StoreError.self) {
            try await store.read("test") { try $0.get(Note.self, profile: "p", key: "bad") }
        }
        #expect(error?.description.contains("bad") == true)
        await #expect(throws: StoreError.self) { try await store.read("test") { try $0.list(Note.self, profile: "p") } }
    }

    @Test("documents are kept by key in their type's namespace and profile; changed, listed by key and forgotten")
    func keptChangedAndForgotten() async throws {
        let store = try await SQLiteStoreFactory().makeStore(maximumBytes: nil)
        try await store.transaction("test") { documents in
            try documents.put(Note("second"), profile: "p", key: "b")
            try documents.put(Note("first"), profile: "p", key: "a")
            try documents.put(Note("other profile"), profile: "q", key: "a")
            try documents.put("same key, other namespace", profile: "p", namespace: "test.other", key: "c")
        }
        let listed = try await store.read("test") { try $0.list(Note.self, profile: "p") }
        #expect(listed.map(\.key) == ["a", "b"] && listed.map(\.value) == [Note("first"), Note("second")])
        let changed = try await store.transaction("test") { documents in
            try documents.update(Note.self, profile: "p", key: "a") { note -> String? in
                note?.text += ", changed"
                return note?.text
            }
        }
        #expect(changed == "first, changed")
        try await store.transaction("test") { documents in
            #expect(try documents.get(Note.self, profile: "p", key: "a") == Note("first, changed"))
            #expect(try documents.get(Note.self, profile: "q", key: "a") == Note("other profile"))
            #expect(try !documents.contains(Note.self, profile: "p", key: "c"))
            try documents.delete(Note.self, profile: "p", key: "a")
            #expect(try !documents.contains(Note.self, profile: "p", key: "a"))
            #expect(try documents.contains(Note.self, profile: "q", key: "a"))
            #expect(try documents.get(String.self, profile: "p", namespace: "test.other", key: "c") != nil)
        }
    }
}

/// A document kept as a JSON string.
struct Note: KeyedDocument, Equatable {
    static let namespace = "test.notes"
    var text: String

    init(_ text: String) { self.text = text }

    init(json: JSONElement) throws(JSONDecodingError) { text = try String(json: json) }

    func encode(to writer: inout JSONWriter) { text.encode(to: &writer) }
}
