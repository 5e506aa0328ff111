// swift-tools-version:6.0
// The libpq side of the spike: the same loop through Debian's libpq (libpq-dev), a system-library target.
import PackageDescription

let package = Package(
    name: "libpq-upsert",
    targets: [
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .executableTarget(name: "libpq-upsert", dependencies: ["CLibPQ"], swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
