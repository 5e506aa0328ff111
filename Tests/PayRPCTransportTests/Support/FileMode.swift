#if canImport(Glibc)
import Glibc
#endif

/// The permission bits of a file, or -1 when it does not exist.
func fileMode(_ path: String) -> Int {
    var info = stat()
    guard lstat(path, &info) == 0 else { return -1 }
    return Int(info.st_mode) & 0o7777
}
