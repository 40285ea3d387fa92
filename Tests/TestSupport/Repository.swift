import BundledCodemods
import CodemodKit
import Foundation
import Migrations
import Workspace

/// A temporary repository with a `.swiftmod.yml`.
public final class Repository {
    public let root: String

    public init(config: String = Repository.standardConfig) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmod-lockdown-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try write(".swiftmod.yml", config)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    public static let standardConfig = """
    migrations:
      - id: webview
        codemod: swap-type
        params: { from: UIWebView, to: WKWebView, import: WebKit }
        priority: P1
        deadline: 2027-03-31
        docs: https://wiki.example.com/webview
        contact: "#ios-platform"
      - codemod: backtick-self
      - codemod: strong-iboutlet
    exclude: ["Pods/**"]
    """

    public func write(_ relative: String, _ content: String) throws {
        let path = (root as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try content.write(toFile: path, atomically: true, encoding: .utf8)
    }

    public func configuration() throws -> Configuration { try Configuration.load(root + "/.swiftmod.yml") }

    public func migrations() throws -> [Migration] {
        try Migration.resolve(configuration(), catalog: CodemodCatalog(bundled: BundledCodemods.definitions))
    }

    public func scan() throws -> ScanResult {
        let configuration = try configuration()
        return Scanner(root: root, migrations: try migrations(), jobs: 2).scan(try Scanner.files(of: configuration, under: []))
    }
}
