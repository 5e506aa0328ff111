#if canImport(Glibc)
import Glibc
#endif

/// What `/proc` says about the server under test: CPU time (utime + stime) and resident memory.
struct ProcessStats {
    /// The observed process.
    let pid: pid_t

    /// User + system CPU time of the whole process (all threads) in seconds, from `/proc/PID/stat`
    /// (resolution: one clock tick, usually 10 ms); nil when the process is gone.
    func cpuSeconds() -> Double? {
        guard let text = ProcessStats.read("/proc/\(pid)/stat") else { return nil }
        // The command name is in parentheses and may contain spaces: fields start after the last ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After ')': state(3) ppid(4) ... utime(14) stime(15) → offsets 11 and 12.
        guard fields.count > 12, let utime = Double(fields[11]), let stime = Double(fields[12]) else {
            return nil
        }
        return (utime + stime) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Peak resident set size (`VmHWM`) in bytes; nil when the process is gone.
    func peakRSS() -> UInt64? { statusField("VmHWM:") }

    /// Current resident set size (`VmRSS`) in bytes; nil when the process is gone.
    func currentRSS() -> UInt64? { statusField("VmRSS:") }

    /// Whether the process still exists (and is not a zombie).
    var isAlive: Bool {
        guard let text = ProcessStats.read("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else {
            return false
        }
        return !text[text.index(after: close)...].hasPrefix(" Z")
    }

    private func statusField(_ name: String) -> UInt64? {
        guard let text = ProcessStats.read("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let parts = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = parts.first, let kib = UInt64(first) else { return nil }
            return kib * 1024
        }
        return nil
    }

    /// Reads a small text file in one go (no Foundation; `/proc` files report size 0).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<64 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
