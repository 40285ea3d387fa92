import Foundation

/// Standardizes absolute paths as `NSString.standardizingPath` does (`.` and `..` taken out,
/// symbolic links resolved), folder by folder: resolving links costs a system call per part of a
/// path, and the files of one folder share it.
public final class PathStandardizer {
    private var folders: [String: String] = [:]

    public init() {}

    /// A path standardized: its folder as `standardizingPath` makes it, and its name.
    public func standardized(_ path: String) -> String {
        // (Split by hand: `NSString`'s path methods cost more than the lookup.)
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return (path as NSString).standardizingPath }
        let name = path[path.utf8.index(after: slash)...]
        // (A path that ends in `/`, `.` or `..` has no name of its own.)
        guard !name.isEmpty, name != ".", name != ".." else { return (path as NSString).standardizingPath }
        let written = slash == path.startIndex ? "/" : String(path[..<slash])
        let folder: String
        if let known = folders[written] {
            folder = known
        } else {
            folder = (written as NSString).standardizingPath
            folders[written] = folder
        }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
