// swift-tools-version: 6.1
//
// payrpc: five mobile payment SDK interfaces served as JSON-RPC 2.0 over NDJSON on libuv.
//
// The targets follow the path of one request (see README "Development"):
//   CLibUV → PayRPCTransport (the only module that touches libuv)
//   PayRPCJSON → PayRPCSchema → PayRPCCore (JSON-RPC engine, router, method declarations; no libcrypto)
//   PayRPCStore (the store protocol: no GRDB, no libpq) → PayRPCSecrets (everything on CLibCrypto,
//     OpenSSL's libcrypto, dlopen on first use) → PayRPCServiceKit → services (TatraService, PBBAService, ...)
//   PayRPCSQLite (GRDB) and PayRPCPostgres (CLibPQ), the store's backends: only PayRPCGateway, the
//     command, the bench and the tests import them.
//   PayRPCGateway assembles them; `payrpc` is the command. docs/architecture.md lists every module
//   (a test in PayRPCCodegenTests compares that list with the targets here).
//   PayRPCProcess (swift-subprocess) spawns children for `payrpc call --spawn`, the bench and the tests.
// `payrpc-codegen` (swift-syntax) is a separate product: nothing in `payrpc` depends on it,
// so a release build of the gateway never waits for swift-syntax.
import Foundation
import PackageDescription

/// `PAYRPC_TEST_ONLY=PayRPCJSONTests,PayRPCCoreTests swift test` declares only those test
/// targets (and leaves out the swift-syntax generator unless `PayRPCCodegenTests` is named), so
/// working on one module on a 2-core machine does not rebuild everything. Unset: everything.
let testOnly = ProcessInfo.processInfo.environment["PAYRPC_TEST_ONLY"].map {
    Set($0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
}
func declared(_ name: String) -> Bool { testOnly?.contains(name) ?? true }
let codegenDeclared = declared("PayRPCCodegenTests")

/// Packed relative relocations (DT_RELR) need glibc 2.36 where the binary runs: a binary linked
/// with them on an older glibc does not start there. The release link asks for them only when the
/// glibc it builds against has them (the binary runs where it is built: `scripts/install`).
let glibcHasPackedRelocations: Bool = {
    #if os(Linux)
    guard let text = try? String(contentsOfFile: "/usr/include/features.h", encoding: .utf8) else { return false }
    func number(_ name: String) -> Int? {
        text.split(separator: "\n").lazy.compactMap { line -> Int? in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return words.count == 3 && words[0] == "#define" && words[1] == name ? Int(words[2]) : nil
        }.first
    }
    guard let major = number("__GLIBC__"), let minor = number("__GLIBC_MINOR__") else { return false }
    return (major, minor) >= (2, 36)
    #else
    return false
    #endif
}()

/// The folder of this manifest: the release link reads `Sources/payrpc/startup.order` from it.
let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

/// Release builds skip the dynamic exclusivity checks (`swift_beginAccess`/`swift_endAccess` on
/// every class property access: about 7 % of the server's CPU on `rpc.health`, measured with
/// perf). The compile-time checks stay on, and debug builds (every `swift test`) keep the dynamic
/// ones, so a violation still fails the tests.
///
/// `MemberImportVisibility`: a file sees only the members of the modules it imports itself, so every
/// direct import is written (and declared as a dependency) where it is used.
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("MemberImportVisibility"),
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

/// The executables' settings: they export nothing, so their imports are internal by default
/// (`InternalImportsByDefault`): a dependency never leaks through one.
let executableSettings = swiftSettings + [.enableUpcomingFeature("InternalImportsByDefault")]

let package = Package(
    name: "payrpc",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "payrpc", targets: ["payrpc"]),
        .executable(name: "payrpc-codegen", targets: ["payrpc-codegen"]),
        .executable(name: "payrpc-bench", targets: ["payrpc-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", exact: "0.2.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2"),
        // swift-subprocess's own dependency: PayRPCProcess uses its FileDescriptor directly.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        // OpenSSL's libcrypto: the secrets' hashes, MACs, key derivations, AES-GCM and random
        // bytes. Loaded with dlopen on the first of them (not linked: a start that answers without
        // one never maps it nor pays its relocations). Builds against <openssl/evp.h> & co.
        // (libssl-dev); runs with libcrypto.so.3 (libssl3).
        .target(name: "CLibCrypto"),
        // PostgreSQL's libpq: the shared store (`serve --store postgresql://…`), driven on the
        // store's own threads (docs/deploy.md says why libpq and not postgres-nio). Loaded with
        // dlopen when the store first connects (not linked: a gateway on SQLite never maps it nor
        // Kerberos, LDAP and GnuTLS behind it). Builds against <libpq-fe.h> (libpq-dev); runs
        // with libpq.so.5 (libpq5).
        .target(name: "CLibPQ"),
        // The one lock type (a Mutex that ThreadSanitizer can see) and its C shim.
        .target(name: "CThreadSanitizer"),
        // pipe2(2) with O_CLOEXEC for the children PayRPCProcess spawns.
        .target(name: "CPipe"),
        // libcurl for HTTPClient, loaded with dlopen on the first outgoing request (not linked:
        // a gateway that never calls out never maps it). Builds against <curl/curl.h>
        // (libcurl4-openssl-dev); runs with libcurl.so.4 (libcurl4).
        .target(name: "CCurlLoader"),
        .target(
            name: "PayRPCSync",
            dependencies: ["CThreadSanitizer"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayRPCJSON",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayRPCSchema",
            dependencies: ["PayRPCJSON"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayRPCCore",
            dependencies: [
                "PayRPCSync", "PayRPCJSON", "PayRPCSchema",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The tester's controls: the sandbox clocks, the seeded generators, the armed failures, their
        // saving, and their JSON-RPC methods (`sandbox.failNext`, `sandbox.clock.*`). The engine
        // names them only through `SandboxAccess`.
        .target(
            name: "PayRPCSandbox",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayRPCMCP",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayRPCTransport",
            dependencies: [
                "PayRPCSync",
                "CLibUV", "PayRPCCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The call journal: every call, notification and outgoing HTTP exchange of a profile,
        // bounded, masked by the schemas' declared secrets, and its `sandbox.calls.*` methods.
        .target(
            name: "PayRPCCalls",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The store protocol every service writes through (no backend: no GRDB, no libpq).
        .target(
            name: "PayRPCStore",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSandbox",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Everything that touches libcrypto: the server key, keyed hashes, sealing, constant-time
        // comparison, the access tokens' digests and the one random source.
        .target(
            name: "PayRPCSecrets",
            dependencies: ["CLibCrypto", "PayRPCSync", "PayRPCCore", "PayRPCSandbox", "PayRPCStore"],
            swiftSettings: swiftSettings
        ),
        // The embedded backend: SQLite through GRDB, with group commit.
        .target(
            name: "PayRPCSQLite",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSandbox", "PayRPCStore", "PayRPCSecrets",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The shared backend: PostgreSQL through libpq.
        .target(
            name: "PayRPCPostgres",
            dependencies: [
                "CLibPQ", "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSandbox", "PayRPCStore", "PayRPCSecrets",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // What every service shares: sandbox data files, domain errors, magic values, money and
        // card checks, the HTTP client for outgoing calls, the outbox and its delivery.
        .target(
            name: "PayRPCServiceKit",
            dependencies: [
                "CCurlLoader", "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCSandbox", "PayRPCStore",
                "PayRPCSecrets",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TatraService",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCSandbox", "PayRPCStore", "PayRPCSecrets",
                "PayRPCServiceKit",
            ],
            resources: [.copy("Resources/tatra-sandbox.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PBBAService",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCSandbox", "PayRPCStore", "PayRPCSecrets",
                "PayRPCServiceKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/pbba-sandbox.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "NorthstarService",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCSandbox", "PayRPCStore", "PayRPCSecrets",
                "PayRPCServiceKit",
            ],
            resources: [.copy("Resources/northstar-sandbox.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "DotpayService",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCSandbox", "PayRPCStore", "PayRPCSecrets",
                "PayRPCServiceKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/dotpay-sandbox.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "JournalService",
            dependencies: [
                "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCSandbox", "PayRPCStore", "PayRPCSecrets",
                "PayRPCServiceKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayRPCGateway",
            dependencies: [
                "PayRPCSync",
                "PayRPCCore", "PayRPCMCP", "PayRPCJSON", "PayRPCSchema", "PayRPCSandbox", "PayRPCTransport", "PayRPCStore",
                "PayRPCSecrets",
                "PayRPCSQLite", "PayRPCPostgres", "PayRPCServiceKit", "PayRPCCalls",
                "TatraService", "PBBAService", "NorthstarService", "DotpayService", "JournalService",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PayRPCProcess",
            dependencies: [
                "CPipe", "PayRPCSync", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "payrpc",
            dependencies: [
                "PayRPCGateway", "PayRPCCalls", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCTransport", "PayRPCProcess",
                "PayRPCSandbox",
                "PayRPCStore", "PayRPCSecrets", "PayRPCSQLite", "PayRPCPostgres", "PayRPCServiceKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["startup.order"],
            swiftSettings: executableSettings,
            // Release on Linux: linked by lld (shipped with the toolchain) with packed relative
            // relocations (DT_RELR): the loader reads 22 KB of them instead of 2.4 MB, and peak
            // RSS at start-up drops by 2.2 MiB (docs/benchmarks.md "Start-up"). Still PIE (ASLR
            // stays); only where the glibc built against has them (``glibcHasPackedRelocations``).
            // The functions a start runs first in the code (`startup.order`, written by
            // scripts/startup-order), and no symbol of the gateway's own exported (the Swift
            // toolchain's static link exports them all: 1.8 MB of symbol table that the loader
            // searched at every start): peak RSS at start-up 30.1 -> 22.2 MiB.
            linkerSettings: glibcHasPackedRelocations
                ? [
                    .unsafeFlags(
                        [
                            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                            "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/payrpc/startup.order",
                            "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic",
                        ],
                        .when(platforms: [.linux], configuration: .release))
                ] : []
        ),
        .target(
            name: "PayRPCCodegen",
            dependencies: [
                "PayRPCJSON", "PayRPCSchema",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "payrpc-codegen",
            dependencies: [
                "PayRPCCodegen",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: executableSettings
        ),
        .executableTarget(
            name: "payrpc-bench",
            dependencies: [
                "PayRPCTransport", "PayRPCCore", "PayRPCProcess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: executableSettings
        ),
        .target(
            name: "PayRPCTestSupport",
            dependencies: [
                "CPipe", "PayRPCSync", "PayRPCCore", "PayRPCJSON", "PayRPCProcess", "PayRPCSandbox", "PayRPCStore",
                "PayRPCSecrets",
                "PayRPCSQLite", "PayRPCPostgres", "PayRPCServiceKit", "PayRPCTransport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/PayRPCTestSupport",
            exclude: ["Python"],
            swiftSettings: swiftSettings
        ),
        // The JSON tape parser as it was before issue 31, the reference that the differential tests
        // and the json_reader fuzz target compare the shipped one with (not part of any product).
        .target(
            name: "PayRPCJSONReference",
            dependencies: ["PayRPCJSON"],
            path: "Tests/PayRPCJSONReference",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PayRPCJSONTests", dependencies: ["PayRPCJSON", "PayRPCJSONReference", "PayRPCTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCCallsTests",
            dependencies: [
                "PayRPCCalls", "PayRPCCore", "PayRPCJSON", "PayRPCSandbox", "PayRPCSync", "PayRPCTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCSchemaTests",
            dependencies: ["PayRPCSchema", "PayRPCJSON", "PayRPCCore", "PayRPCSandbox", "PayRPCTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCCoreTests",
            dependencies: [
                "PayRPCSandbox",
                "PayRPCSync", "PayRPCCore", "PayRPCMCP", "PayRPCJSON", "PayRPCSchema", "PayRPCSecrets", "PayRPCTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCTransportTests",
            dependencies: [
                "PayRPCTransport", "PayRPCCore", "PayRPCTestSupport", "CLibUV", "CPipe",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Connection/ConnectionStateMachine.transitions.txt"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCStoreTests",
            dependencies: [
                "PayRPCSandbox",
                "PayRPCSync", "PayRPCStore", "PayRPCSecrets", "PayRPCSQLite", "PayRPCPostgres", "PayRPCCore", "PayRPCJSON",
                "PayRPCTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"],
            resources: [.copy("Support/pg_commit_cutter.py")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCServiceKitTests",
            dependencies: [
                "PayRPCServiceKit", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCStore", "PayRPCSecrets", "PayRPCSQLite",
                "PayRPCSync", "PayRPCTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Support/http_echo.py")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "TatraServiceTests",
            dependencies: [
                "PayRPCSandbox",
                "TatraService", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCStore", "PayRPCSecrets", "PayRPCSQLite",
                "PayRPCServiceKit",
                "PayRPCTestSupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NorthstarServiceTests",
            dependencies: [
                "PayRPCSandbox",
                "NorthstarService", "PayRPCCore", "PayRPCJSON", "PayRPCStore", "PayRPCSecrets", "PayRPCSQLite",
                "PayRPCServiceKit",
                "PayRPCTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Support/orders_backend.py"), .copy("Support/paypal")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "DotpayServiceTests",
            dependencies: [
                "PayRPCSandbox",
                "DotpayService", "PayRPCCore", "PayRPCJSON", "PayRPCStore", "PayRPCSecrets", "PayRPCSQLite", "PayRPCServiceKit",
                "PayRPCTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Support/urlc_shop.py")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "JournalServiceTests",
            dependencies: [
                "PayRPCSandbox",
                "JournalService", "PayRPCCore", "PayRPCJSON", "PayRPCStore", "PayRPCSecrets", "PayRPCSQLite", "PayRPCPostgres",
                "PayRPCServiceKit",
                "PayRPCTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Support/journal_backend.py")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PBBAServiceTests",
            dependencies: [
                "PayRPCSandbox",
                "PBBAService", "PayRPCCore", "PayRPCJSON", "PayRPCStore", "PayRPCSecrets", "PayRPCSQLite", "PayRPCServiceKit",
                "PayRPCTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCGatewayTests",
            dependencies: [
                "PayRPCSandbox",
                "PayRPCGateway", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", "PayRPCServiceKit", "PayRPCStore", "PayRPCSQLite",
                "PayRPCSync", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCCodegenTests",
            dependencies: ["PayRPCCodegen", "PayRPCJSON", "PayRPCSchema", "PayRPCTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "PayRPCProcessTests",
            dependencies: ["PayRPCProcess", "PayRPCTestSupport", .product(name: "Subprocess", package: "swift-subprocess")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "PayRPCSandbox", "PayRPCSync", "PayRPCJSON", "PayRPCSchema", "PayRPCTestSupport", "PayRPCTransport",
                "PayRPCProcess",
            ],
            swiftSettings: swiftSettings),
    ].filter { target in
        if target.type == .test { return declared(target.name) }
        if target.name == "PayRPCCodegen" || target.name == "payrpc-codegen" { return codegenDeclared }
        return true
    }
)
package.products.removeAll { product in !codegenDeclared && product.name == "payrpc-codegen" }
if !codegenDeclared {
    package.dependencies.removeAll { "\($0.kind)".contains("swift-syntax") }
}

/// `PAYRPC_FUZZ=1` declares the libFuzzer targets of `Fuzz/` (one executable per target, named
/// `fuzz_<target>`, with the modules it exercises). `Fuzz/run` builds them in release with
/// `-sanitize=fuzzer,address` in its own scratch path; see Fuzz/README.md. Unset: they do not exist.
if ProcessInfo.processInfo.environment["PAYRPC_FUZZ"] != nil {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("framer", ["PayRPCTransport"]),
        ("json_reader", ["PayRPCJSON", "PayRPCJSONReference"]),
        ("json_roundtrip", ["PayRPCJSON"]),
        ("validator", ["PayRPCJSON", "PayRPCSchema"]),
        (
            "codecs",
            ["PayRPCGateway", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", .product(name: "Logging", package: "swift-log")]
        ),
        (
            "decoders",
            ["PayRPCGateway", "PayRPCCore", "PayRPCJSON", "PayRPCSchema", .product(name: "Logging", package: "swift-log")]
        ),
        ("journal_url", ["JournalService"]),
    ]
    package.targets += [
        .target(name: "CFuzzer", path: "Fuzz/CFuzzer"),
        .target(name: "PayRPCFuzzSupport", dependencies: ["CFuzzer"], path: "Fuzz/Support", swiftSettings: swiftSettings),
    ]
    for target in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: "fuzz_\(target.name)", dependencies: ["PayRPCFuzzSupport"] + target.dependencies,
                path: "Fuzz/Targets/\(target.name)",
                // An `@main` type in a file not named main.swift; libFuzzer linked into the fuzz
                // executables only (the rest of the build is instrumented for coverage by Fuzz/run's
                // flags, not linked with the fuzzer); lld, since gold fails beside its `main`.
                swiftSettings: swiftSettings + [.unsafeFlags(["-parse-as-library"])],
                linkerSettings: [.unsafeFlags(["-sanitize=fuzzer", "-use-ld=lld"])]))
        package.products.append(.executable(name: "fuzz_\(target.name)", targets: ["fuzz_\(target.name)"]))
    }
}
