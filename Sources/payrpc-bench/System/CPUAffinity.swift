#if canImport(Glibc)
import Glibc
#endif

/// Pins the calling thread (and the threads it starts later) to one CPU core with `sched_setaffinity`.
///
/// Glibc declares `sched_setaffinity` only under `_GNU_SOURCE`, which Swift's Glibc module does not
/// set, so the symbol is looked up with `dlsym`.
enum CPUAffinity {
    private typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32

    /// Restricts the calling thread (`pid` 0) or another process to `core`.
    /// - Throws: ``BenchError`` when the core does not exist or the call fails.
    static func pin(_ pid: pid_t = 0, toCore core: Int) throws(BenchError) {
        guard core >= 0, core < MemoryLayout<cpu_set_t>.size * 8 else {
            throw BenchError("CPU \(core) is out of range")
        }
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity") else {
            throw BenchError("sched_setaffinity is not available")
        }
        let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { bytes in
            bytes[core / 8] |= UInt8(1) << UInt8(core % 8)
        }
        let result = withUnsafeBytes(of: &set) { bytes in
            setAffinity(pid, bytes.count, bytes.baseAddress!)
        }
        if result != 0 {
            throw BenchError(
                "cannot pin \(pid == 0 ? "the load generator" : "process \(pid)") to CPU \(core): \(String(cString: strerror(errno)))"
            )
        }
    }
}
