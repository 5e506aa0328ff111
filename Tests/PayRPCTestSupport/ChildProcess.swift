import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ending a child process from a test's `deinit` without blocking a thread for ever.
///
/// `Process.waitUntilExit()` waits until Foundation has seen the child's SIGCHLD; with many
/// children started at once, swift-corelibs-foundation was seen to miss one (the child stayed a
/// zombie), and the `deinit` blocked its thread of the cooperative pool for good — on two cores,
/// two of them stall every test. This waits a bounded time instead, and leaves reaping to
/// Foundation (reaping here could take the exit status from under it).
public enum ChildProcess {
    /// Sends SIGKILL to `process` while Foundation reports it running, then waits at most
    /// `timeout` for Foundation to see it exit.
    public static func end(_ process: Process, timeout: TimeInterval = 10) {
        guard process.processIdentifier > 0 else { return }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        _ = waitForExit(process, timeout: timeout)
    }

    /// Waits at most `timeout` for `process` to exit by itself; its exit status, or nil (and it is
    /// killed) when it did not exit in time or Foundation never saw it exit.
    public static func status(of process: Process, timeout: TimeInterval = 60) -> Int32? {
        if !waitForExit(process, timeout: timeout) {
            end(process, timeout: 1)
            return nil
        }
        return process.terminationStatus
    }

    /// Whether Foundation saw `process` exit within `timeout` (waited for on a thread of its own).
    private static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        let box = UncheckedProcess(process)
        return EventWait.blockingNow(timeout: timeout) { box.process.waitUntilExit() } != nil
    }
}

/// `Process` is not `Sendable`; waiting for its exit from another thread is what it is built for.
private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}
