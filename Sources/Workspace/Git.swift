import Foundation

/// Runs git, returning its standard output, or nil when git is missing or fails.
public enum Git {
    /// The commit checked out in a folder's repository, or nil outside git.
    public static func head(in directory: String) -> String? {
        run(["rev-parse", "HEAD"], in: directory).map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The top folder of the git work tree holding a folder, or nil outside git.
    /// Asked of git once per folder and process.
    public static func topLevel(of directory: String) -> String? {
        let key = URL(fileURLWithPath: directory).standardizedFileURL.path
        topLevelLock.lock()
        let known = topLevels[key]
        topLevelLock.unlock()
        if let known { return known }
        let found = run(["rev-parse", "--show-toplevel"], in: directory).map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .newlines) }
        topLevelLock.lock()
        topLevels[key] = .some(found)
        topLevelLock.unlock()
        return found
    }

    private static let topLevelLock = NSLock()
    nonisolated(unsafe) private static var topLevels: [String: String?] = [:]

    /// Runs git in a folder and returns what it printed, or nil when it failed.
    /// - Parameter input: bytes for its standard input (for `cat-file --batch`), passed through a
    ///   temporary file so that git stopping early cannot block or break the writer.
    public static func run(_ arguments: [String], in directory: String, input: [UInt8]? = nil) -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        if let input {
            let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("swiftmod-git-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: path, contents: Data(input)),
                  let handle = FileHandle(forReadingAtPath: path) else { return nil }
            unlink(path)  // open, so git still reads it; nothing is left behind
            process.standardInput = handle
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Array(data) : nil
    }
}
