import CLibUV

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `uv_timer_t` owned by a Swift object: one-shot or repeating, used on the loop thread only.
///
/// The handle keeps the object alive (`Unmanaged` in `handle->data`) until its close callback.
/// Open timers are registered with their loop, which closes them when it shuts down.
final class UVTimer {
    private let handle: UnsafeMutableRawPointer
    private let onFire: (UVTimer) -> Void
    private unowned let loop: LibUVEventLoop
    private(set) var isClosed = false
    /// Where the loop keeps this timer among its open ones (-1 once closed); the loop's own.
    var registryIndex = -1

    /// Creates a stopped timer that calls `onFire` (with itself) each time it fires.
    init(loop: LibUVEventLoop, onFire: @escaping (UVTimer) -> Void) {
        loop.assertInLoopThread()
        self.loop = loop
        self.onFire = onFire
        handle = malloc(uv_handle_size(UV_TIMER))!
        uv_timer_init(loop.uvLoop, payrpc_timer(handle))
        payrpc_set_handle_data(handle, Unmanaged.passRetained(self).toOpaque())
        loop.register(self)
    }

    /// Fires after `milliseconds`, then every `repeatEvery` milliseconds if that is not 0.
    func start(after milliseconds: UInt64, repeatEvery: UInt64 = 0) {
        guard !isClosed else { return }
        uv_timer_start(payrpc_timer(handle), timerCallback, milliseconds, repeatEvery)
    }

    /// Stops the timer without closing it.
    func stop() {
        guard !isClosed else { return }
        uv_timer_stop(payrpc_timer(handle))
    }

    /// Lets the loop end while this timer is the only thing running.
    func unref() {
        guard !isClosed else { return }
        uv_unref(payrpc_handle(handle))
    }

    /// Stops the timer for good; the handle is freed in its close callback. Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.unregister(self)
        uv_close(payrpc_handle(handle), timerClosed)
    }

    fileprivate func fire() {
        onFire(self)
        loop.flushPendingOutput()
    }
}

private func timerCallback(_ handle: UnsafeMutablePointer<uv_timer_t>?) {
    guard let handle else { return }
    Unmanaged<UVTimer>.fromOpaque(payrpc_handle_data(handle)).takeUnretainedValue().fire()
}

private func timerClosed(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
    guard let handle else { return }
    Unmanaged<UVTimer>.fromOpaque(payrpc_handle_data(handle)).release()
    free(handle)
}
