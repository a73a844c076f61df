// swift-tools-version:6.0
import PackageDescription

// A package that depends on Fovea the way a user's package does: by a git URL
// and a version, never by path or branch. scripts/ci/versioned-consumer.sh points
// FOVEA_URL at a clone of the commit under test, tagged with the version of
// CHANGELOG.md; by hand, it defaults to this repository.
let foveaURL = Context.environment["FOVEA_URL"] ?? "file://\(Context.packageDirectory)/../../.build-versioned/fovea"

// The examples' own code compiles with warnings as errors (a root package may use
// unsafe flags; Fovea, a versioned dependency, has none). Warnings from Fovea's
// sources are counted by scripts/ci/versioned-consumer.sh.
let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
    name: "VersionedConsumer",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: foveaURL, from: "0.1.0"),
    ],
    targets: [
        // The README's "Using Fovea from Swift" example, word for word
        // (scripts/ci/versioned-consumer.sh checks that the two agree).
        .executableTarget(name: "ClassifyPhoto", dependencies: [.product(name: "Fovea", package: "fovea")],
                          swiftSettings: strict),
        // Several photos from concurrent tasks, and a folder in one call (issue 37).
        .executableTarget(name: "ClassifyConcurrently", dependencies: [.product(name: "Fovea", package: "fovea")],
                          swiftSettings: strict),
        .executableTarget(name: "ClassifyFolder", dependencies: [.product(name: "Fovea", package: "fovea")],
                          swiftSettings: strict),
        // SqueezeNet latency from this build, to compare with the root build's `fovea bench`
        // (LatencyBenchmark, in the FoveaTools product).
        .executableTarget(name: "BenchSqueezeNet", dependencies: [
            .product(name: "Fovea", package: "fovea"), .product(name: "FoveaTools", package: "fovea"),
        ]),
    ]
)
