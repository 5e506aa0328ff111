#if canImport(Glibc)
import Glibc
#endif

/// The path of the running `payrpc-bench` binary (to spawn its own `ceiling --stdio`).
enum SelfExecutable {
    static var path: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
