// swift-tools-version:6.0
// The postgres-nio side of the spike: a one-row upsert transaction loop on N connections.
import PackageDescription

let package = Package(
    name: "nio-upsert",
    platforms: [.macOS(.v13)],
    dependencies: [.package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2")],
    targets: [
        .executableTarget(
            name: "nio-upsert",
            dependencies: [.product(name: "PostgresNIO", package: "postgres-nio")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        )
    ]
)
