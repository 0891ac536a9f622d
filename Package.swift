// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Stockroom",
    // iOS for apps that use the StockroomClient library (the server and CLI are built for macOS and Linux only).
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "stockroom", targets: ["stockroom"]),
        .library(name: "InventoryDomain", targets: ["InventoryDomain"]),
        .library(name: "InventoryStore", targets: ["InventoryStore"]),
        .library(name: "BarcodeReader", targets: ["BarcodeReader"]),
        // The API's Swift client for native apps, generated from Sources/InventoryServer/Resources/openapi.json.
        .library(name: "StockroomClient", targets: ["StockroomClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        // Measurements (`serve --metrics`): the swift-metrics API in the store and server, Prometheus as its backend.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The PostgreSQL backend (issue 13): PostgresNIO's connection pool, no ORM.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // MARK: inventory core
        .target(name: "InventoryDomain", swiftSettings: swiftSettings),
        .target(
            name: "InventoryStore",
            dependencies: ["InventoryDomain", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                           .product(name: "Metrics", package: "swift-metrics")],
            swiftSettings: swiftSettings
        ),
        // The same books on PostgreSQL, for shops that outgrow one machine (issue 13; being built aggregate by aggregate).
        .target(
            name: "InventoryPostgres",
            dependencies: [
                // InventoryStore for the SQL both backends share (package access: StockStatusSQL, SalesSummary.monthSums).
                "InventoryDomain", "InventoryStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "InventoryServer",
            dependencies: [
                "InventoryDomain", "InventoryStore", "BarcodeReader", "BarcodeImage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // The web app (templates and static files, served as they are: no build step) and the API's OpenAPI document.
            resources: [.copy("Resources/web"), .copy("Resources/openapi.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StockroomCLI",
            dependencies: [
                "InventoryDomain", "InventoryStore", "InventoryPostgres", "BarcodeReader", "InventoryServer", "BarcodeImage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "stockroom", dependencies: ["StockroomCLI", .product(name: "NIOPosix", package: "swift-nio"),
                                                                 .product(name: "NIOCore", package: "swift-nio")],
                          swiftSettings: swiftSettings),
        // posix_spawn for the tests that start programs (Foundation's Process can read past a buffer on Linux).
        .target(name: "ChildProcess", path: "Tests/ChildProcess", swiftSettings: swiftSettings),
        .testTarget(name: "InventoryDomainTests", dependencies: ["InventoryDomain"], swiftSettings: swiftSettings),
        .testTarget(
            name: "InventoryStoreTests",
            dependencies: [
                "InventoryDomain", "InventoryStore", "InventoryPostgres", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "InventoryServerTests",
            dependencies: [
                "InventoryServer", "InventoryDomain", "InventoryStore", "ChildProcess",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StockroomCLITests",
            dependencies: ["StockroomCLI", "InventoryDomain", "InventoryStore", "ChildProcess"],
            swiftSettings: swiftSettings
        ),

        // MARK: Swift client
        // Generated at build time from openapi.json (a symlink to the server's document: one file, two readers).
        .target(
            name: "StockroomClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // A whole shop day through the generated client against a live `stockroom serve`.
        .testTarget(
            name: "StockroomClientTests",
            dependencies: [
                "StockroomClient", "ChildProcess",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: barcode
        .target(name: "BarcodeReader", swiftSettings: swiftSettings),
        // libpng/libjpeg decoding in C (their errors longjmp); needs Debian libpng-dev and libjpeg62-turbo-dev.
        .target(name: "CImageShim", linkerSettings: [.linkedLibrary("png"), .linkedLibrary("jpeg")]),
        .target(name: "BarcodeImage", dependencies: ["BarcodeReader", "CImageShim"], swiftSettings: swiftSettings),
        .testTarget(
            name: "BarcodeReaderTests", dependencies: ["BarcodeReader", "BarcodeImage", "ChildProcess"],
            // Pictures read by the tests through #filePath (a misread case kept as a regression fixture).
            exclude: ["Fixtures"], swiftSettings: swiftSettings
        ),
        // Seeded soak harness over the image loaders and the decoder (issue 11, point 6): scripts/barcode-soak.sh.
        .executableTarget(name: "barcode-soak", dependencies: ["BarcodeReader", "BarcodeImage"], path: "Sources/BarcodeSoak", swiftSettings: swiftSettings),
    ]
)
