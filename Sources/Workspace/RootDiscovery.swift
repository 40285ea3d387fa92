import Foundation

/// Finds where a command works from: the nearest folder, from the working folder up, that holds
/// a given file (`.swiftmod.yml`), whose folder is then the repository root.
public enum RootDiscovery {
    /// The path of the nearest file of that name in `folder` or a folder above it, or nil.
    public static func nearest(_ fileName: String, from folder: String = FileManager.default.currentDirectoryPath) -> String? {
        var current = URL(fileURLWithPath: folder).standardizedFileURL
        while true {
            let candidate = current.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
    }
}
