import Foundation
import PayRPCJSON
import PayRPCStore
import PayRPCSQLite
import Testing
import PayRPCCore
import PayRPCTestSupport
import PayRPCSecrets

@Suite("Card masks, keyed hashes, PIN hashes, the server key, and no secret in the files")
struct SecretHelperTests {
    @Test("card numbers keep the first 6 and last 4 digits")
    func mask() {
        #expect(CardNumberMask.mask("4111111111111111") == "411111******1111")
        #expect(CardNumberMask.mask("4111 1111 1111 1111") == "411111******1111")
        #expect(CardNumberMask.mask("378282246310005") == "378282*****0005")
        #expect(CardNumberMask.mask("123456789012") == "********9012")
        #expect(CardNumberMask.mask("1234") == "****")
        #expect(CardNumberMask.mask("") == "")
        #expect(CardNumberMask.digits("4111-1111 1111-1111") == "4111111111111111")
        #expect(CardNumberMask.digits("4111x") == nil)
    }

    @Test("keyed hashes match their secret, differ by key and context, and compare as hex")
    func keyedHash() throws {
        let hasher = try SecretHasher(key: [UInt8](repeating: 7, count: 32))
        let hash = try hasher.keyedHash("4111111111111111", context: "card")
        #expect(hash.count == 64)
        #expect(hasher.matches("4111111111111111", keyedHash: hash, context: "card"))
        #expect(!hasher.matches("4111111111111112", keyedHash: hash, context: "card"))
        #expect(!hasher.matches("4111111111111111", keyedHash: hash, context: "token"))
        #expect(!hasher.matches("4111111111111111", keyedHash: "not hex", context: "card"))
        #expect(try SecretHasher.ephemeral().keyedHash("4111111111111111", context: "card") != hash)
        // HMAC-SHA256(key, context || 0x00 || secret), checked with Python's hmac module.
        #expect(
            try hasher.keyedHash("tok", context: "t")
                == Hex.encode(try HMACSHA256.authenticate(Array("t\u{0}tok".utf8), key: [UInt8](repeating: 7, count: 32))))
        #expect(throws: StoreError.self) { try SecretHasher(key: [1, 2, 3]) }
    }

    @Test("the server key is generated once, with mode 0600, and reused")
    func keyFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let nested = directory.url.appendingPathComponent("data", isDirectory: true)
        let first = try SecretHasher.loadOrCreate(in: nested)
        let keyPath = nested.appendingPathComponent(SecretHasher.keyFileName).path
        let attributes = try FileManager.default.attributesOfItem(atPath: keyPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 32)
        let second = try SecretHasher.loadOrCreate(in: nested)
        #expect(try first.keyedHash("x") == second.keyedHash("x"))
        // Nothing else is left in the directory (no temporary files).
        #expect(try FileManager.default.contentsOfDirectory(atPath: nested.path) == [SecretHasher.keyFileName])
    }

    @Test("a server key file of the wrong size is a clear error, not a new key")
    func badKeyFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data([1, 2, 3]).write(to: directory.url.appendingPathComponent(SecretHasher.keyFileName))
        do {
            _ = try SecretHasher.loadOrCreate(in: directory.url)
            Issue.record("a 3-byte key file was accepted")
        } catch {
            #expect(error.code == .secretKey)
            #expect(error.message.contains("3 bytes"))
        }
    }

    @Test("documents with masked cards, hashed PINs and tokens leave no clear secret in the database files")
    func noClearSecretsOnDisk() async throws {
        let cardNumber = "4111111111111111"
        let pin = "7294"
        let token = "tok_live_9f8e7d6c5b4a39281706"
        try await withStore { store, directory in
            let hasher = try SecretHasher.loadOrCreate(in: directory.url)
            let card: JSONValue = [
                "maskedNumber": .string(CardNumberMask.mask(cardNumber)),
                "numberHash": .string(try hasher.keyedHash(cardNumber, context: "card")),
                "tokenHash": .string(try hasher.keyedHash(token, context: "token")),
            ]
            try await store.put(profile: "p", namespace: "oneclick.cards", key: "card-1", value: card)
            try await store.put(
                profile: "p", namespace: "tatra.pin", key: "user",
                value: ["pinHash": .string(try hasher.keyedHash(pin, context: "pin"))])
            _ = try await store.claim(profile: "p", key: "idem", method: "oneclick.addCard", paramsDigest: "digest")
            try await store.complete(profile: "p", key: "idem", outcome: #""result":{"card":"411111******1111"}"#)

            // Read what is on disk while the store is open (the -wal file) and after closing.
            let walPath = directory.databasePath + "-wal"
            let wal = try Data(contentsOf: URL(fileURLWithPath: walPath))
            try await store.close()
            let database = try Data(contentsOf: URL(fileURLWithPath: directory.databasePath))
            for (name, bytes) in [("wal", wal), ("database", database)] {
                #expect(bytes.range(of: Data(cardNumber.utf8)) == nil, "clear card number in the \(name) file")
                #expect(bytes.range(of: Data("\"\(pin)\"".utf8)) == nil, "clear PIN in the \(name) file")
                #expect(bytes.range(of: Data(token.utf8)) == nil, "clear token in the \(name) file")
            }
            // The search does see what was stored: the masked number is there.
            #expect(
                wal.range(of: Data("411111******1111".utf8)) != nil || database.range(of: Data("411111******1111".utf8)) != nil)
        }
    }
}
