// swift-tools-version:6.1
// The ceiling for scripts/bench-wrk.sh: a bare Hummingbird 2 app answering a constant JSON object, built apart from
// Stockroom so that the product's build does not grow. Build: swift build -c release --package-path Benchmarks/Baseline
import PackageDescription

let package = Package(
    name: "Baseline",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(name: "baseline", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
    ]
)
