import Foundation
import InterfaceBuilder
import Workspace

/// What reading each Swift, storyboard and xib file for the outlet verdicts gave, by path, with
/// the file's stamp: a file whose stamp is unchanged is not read again (`scan` with outlet rules,
/// `swiftmod outlets`). Kept in `.swiftmod/cache/outlets.cache`, trusted only when intact.
struct OutletReadingCache: Codable {
    struct Entry: Codable {
        var stamp: FileStamp
        var swift: SwiftOutlets?
        var document: IBDocument?
        /// Why an Interface Builder file could not be read (its line, and the reason).
        var failure: ReadFailure?
    }

    struct ReadFailure: Codable {
        var line: Int
        var reason: String
    }

    var entries: [String: Entry] = [:]

    /// Raised whenever what reading a file gives changes.
    static let format = "swiftmod-outlets-7"

    static func defaultPath(root: String) -> String {
        (root as NSString).appendingPathComponent(".swiftmod/cache/outlets.cache")
    }

    /// The cache at a path, or an empty one (missing, damaged, of another format or version).
    static func load(_ path: String, version: String) -> OutletReadingCache {
        guard let payload = CacheFile.read(path, format: format, key: version),
              let cache = try? PropertyListDecoder().decode(OutletReadingCache.self, from: Data(payload)) else { return OutletReadingCache() }
        return cache
    }

    func write(_ path: String, version: String) {
        // (A binary property list: decoding it is several times faster than JSON.)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        guard let data = try? encoder.encode(self) else { return }
        CacheFile.write(path, format: Self.format, key: version, payload: [UInt8](data))
    }

    /// The entry of a file whose stamp has not changed.
    func fresh(_ path: String, stamp: FileStamp?) -> Entry? {
        guard let stamp, let entry = entries[path], entry.stamp == stamp else { return nil }
        return entry
    }
}
