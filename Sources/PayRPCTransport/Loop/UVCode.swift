import CLibUV

/// libuv error codes as `Int32`, the type libuv functions return.
enum UVCode {
    static let eof = UV_EOF.rawValue
    static let again = UV_EAGAIN.rawValue
    static let cancelled = UV_ECANCELED.rawValue
    static let invalidArgument = UV_EINVAL.rawValue
    static let addressInUse = UV_EADDRINUSE.rawValue
    static let connectionRefused = UV_ECONNREFUSED.rawValue
    static let badFileDescriptor = UV_EBADF.rawValue
    static let nameTooLong = UV_ENAMETOOLONG.rawValue
    static let notSupported = UV_ENOTSUP.rawValue
    static let busy = UV_EBUSY.rawValue
    static let noMemory = UV_ENOMEM.rawValue

    /// libuv's short name of a code (`ECONNRESET`).
    static func name(_ code: Int32) -> String { String(cString: uv_err_name(code)) }
}
