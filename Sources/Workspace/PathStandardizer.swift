import Foundation

/// Standardizes absolute paths as `NSString.standardizingPath` does (`.` and `..` taken out,
/// symbolic links resolved), folder by folder: a folder is its parent's standardized path and
/// its own name, unless that name is a symbolic link (one `lstat`, where `standardizingPath`
/// asks of every part of the path each time); the files of one folder share it.
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
        let folder = slash == path.startIndex ? "/" : standardizedFolder(String(path[..<slash]))
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// A folder's path (absolute, no `/` at its end) standardized.
    private func standardizedFolder(_ written: String) -> String {
        if let known = folders[written] { return known }
        let standardized: String
        if let slash = written.utf8.lastIndex(of: UInt8(ascii: "/")), slash != written.startIndex, written.hasPrefix("/") {
            let name = written[written.utf8.index(after: slash)...]
            if name.isEmpty || name == "." || name == ".." || name.hasPrefix("~") {
                standardized = (written as NSString).standardizingPath
            } else {
                let parent = standardizedFolder(String(written[..<slash]))
                let joined = parent.hasSuffix("/") ? parent + name : parent + "/" + name
                standardized = Self.isSymbolicLink(joined) ? (joined as NSString).standardizingPath : joined
            }
        } else {
            standardized = (written as NSString).standardizingPath
        }
        folders[written] = standardized
        return standardized
    }

    static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }
}
