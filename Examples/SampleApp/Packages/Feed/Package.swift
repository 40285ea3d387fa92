// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Feed",
    targets: [
        .target(name: "FeedUI", dependencies: ["FeedCore", "ImageService"]),
        .target(name: "FeedCore"),
        // A service: it must not know UIKit (module-types in .swiftmod.yml).
        .target(name: "ImageService"),
    ]
)
