import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PayRPCStore

extension SecretHasher {
    /// The name of the server key file in the data directory.
    public static let keyFileName = "server.key"

    /// The hasher keyed with the server key of `directory`, generating the key (32 random bytes,
    /// in a file of mode 0600) on first start.
    ///
    /// The file is written under a temporary name, synced, then linked into place, so two
    /// processes starting at once agree on one key and a crash never leaves a short key.
    /// - Throws: ``StoreError``: `secretKey` when the file cannot be read or created, or does not
    ///   hold exactly 32 bytes; `cryptography` when OpenSSL cannot draw the key.
    public static func loadOrCreate(in directory: URL) throws(StoreError) -> SecretHasher {
        let path = directory.appendingPathComponent(keyFileName).path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.secretKey, "cannot create the data directory \(directory.path): \(error)")
        }
        if let key = try readKey(path) { return try SecretHasher(key: key) }
        let temporary = path + ".tmp-\(getpid())-\(Hex.encode(try SecureRandom.bytes(4)))"
        let key = try SecureRandom.bytes(keySize)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError(.secretKey, "cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        defer { unlink(temporary) }
        let written = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == keySize, synced == 0 else {
            throw StoreError(.secretKey, "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        if link(temporary, path) != 0 {
            let error = errno
            // Another process won the race: use its key.
            if error == EEXIST, let existing = try readKey(path) { return try SecretHasher(key: existing) }
            throw StoreError(.secretKey, "cannot create \(path): \(String(cString: strerror(error)))")
        }
        let directoryDescriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        return try SecretHasher(key: key)
    }

    /// The key in `path`, or nil when there is no such file.
    private static func readKey(_ path: String) throws(StoreError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw StoreError(.secretKey, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: keySize + 1)
        var total = 0
        while total < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                throw StoreError(.secretKey, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            total += count
        }
        guard total == keySize else {
            throw StoreError(
                .secretKey,
                "\(path) holds \(total == keySize + 1 ? "more than \(keySize)" : "\(total)") bytes, not a \(keySize)-byte server key; move it away to generate a new key"
            )
        }
        return Array(buffer.prefix(keySize))
    }
}
