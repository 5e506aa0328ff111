import CFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// A libFuzzer target: one function from arbitrary bytes that must not crash, hang, leak or
/// break the property it checks.
///
/// A target is an `@main` type conforming to this protocol; its `main` hands ``fuzz(_:)`` to
/// libFuzzer's driver. Why not `@_cdecl("LLVMFuzzerTestOneInput")` and libFuzzer's own `main`:
/// SwiftPM links every executable with `main` aliased to the module's Swift entry point, so the
/// module must have one (see Fuzz/README.md).
public protocol FuzzTarget {
    /// Checks one input; a broken property calls ``fuzzCheck(_:_:file:line:)``, which crashes so
    /// that libFuzzer saves the input.
    static func fuzz(_ input: UnsafeRawBufferPointer)

    /// Runs once before the first input (compiling schemas, building a router).
    static func setUp()
}

extension FuzzTarget {
    public static func setUp() {}

    /// Runs libFuzzer with the process's arguments (`-max_total_time=`, corpus folders, ...).
    public static func main() {
        setUp()
        FuzzDriver.body = fuzz
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                FuzzDriver.body(UnsafeRawBufferPointer(start: data, count: size))
                return 0
            })
    }
}

/// Where the C callback finds the Swift target (a C function pointer captures nothing).
enum FuzzDriver {
    /// Set once, before libFuzzer starts; libFuzzer calls the target from one thread.
    nonisolated(unsafe) static var body: (UnsafeRawBufferPointer) -> Void = { _ in }
}

/// Stops the process with `message` when `condition` is false: a property the target checks was
/// broken, and libFuzzer keeps the input that broke it.
public func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError(message(), file: file, line: line) }
}

/// Reads small numbers off the front of an input, for targets that derive choices (chunk sizes,
/// a method, a limit) from the fuzzer's bytes; the rest is the payload.
public struct FuzzBytes {
    /// The bytes not read yet.
    public private(set) var rest: UnsafeRawBufferPointer

    /// Reads from the start of `input`.
    public init(_ input: UnsafeRawBufferPointer) { rest = input }

    /// The next byte, or 0 when none is left.
    public mutating func byte() -> UInt8 {
        guard let first = rest.first else { return 0 }
        rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst())
        return first
    }
}
