import Foundation
import Testing

/// Runs the built `swiftmod` binary and other tools, for end-to-end tests.
enum CLI {
    /// The package root (this file is Tests/SwiftmodCLITests/CLIHarness.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The `swiftmod` binary next to the test bundle, or $SWIFTMOD_BIN.
    static let binary: String = {
        if let explicit = ProcessInfo.processInfo.environment["SWIFTMOD_BIN"] { return explicit }
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path,
            Bundle.main.bundleURL.path,
            Bundle.main.bundleURL.deletingLastPathComponent().path,
            packageRoot + "/.build/debug",
        ]
        for folder in candidates {
            let path = folder + "/swiftmod"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return packageRoot + "/.build/debug/swiftmod"
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutBytes: Data
    }

    /// Runs swiftmod with arguments in a folder.
    @discardableResult
    static func swiftmod(_ arguments: [String], in directory: String? = nil, stdin: String? = nil,
                         environment: [String: String] = [:]) throws -> Result {
        try run(binary, arguments, in: directory, environment: environment)
    }

    /// Runs any program (looked up on PATH when not a path).
    static func run(_ program: String, _ arguments: [String], in directory: String? = nil,
                    environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment.merge(extra) { _, given in given }
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read both pipes while the process runs, so a large output cannot block it.
        let errorBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errorData = errorBox.data
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self), stdoutBytes: outputData)
    }

    /// Checks that files parse with the Swift compiler's own parser; returns its complaints.
    static func swiftcParseErrors(_ files: [String]) throws -> String {
        var complaints = ""
        // Many files per call is fast; chunks keep the command line short.
        for chunk in stride(from: 0, to: files.count, by: 500).map({ Array(files[$0..<min($0 + 500, files.count)]) }) {
            let result = try run("swiftc", ["-frontend", "-parse"] + chunk)
            if result.status != 0 { complaints += result.stderr }
        }
        return complaints
    }
}

/// A temporary folder for one test.
final class Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmod-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func url(_ relative: String) -> URL { URL(fileURLWithPath: path).appendingPathComponent(relative) }

    @discardableResult
    func write(_ relative: String, _ content: String) throws -> String {
        try write(relative, data: Data(content.utf8))
    }

    @discardableResult
    func write(_ relative: String, data: Data) throws -> String {
        let file = url(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file.path
    }

    func read(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }

    /// Commits everything on a day and records the tracker's counts for it (`report --record`).
    func commitAndRecord(_ message: String, date: String) throws {
        try git(["add", "-A"])
        try git(["commit", "-qm", message], date: date)
        let recorded = try CLI.swiftmod(["report", "--record", "--date", date], in: path)
        #expect(recorded.status == 0, "\(recorded.stderr)")
    }

    /// A folder here holding only `swiftmod` (the binary under test), to put on a short PATH as
    /// Xcode or a git hook would run it.
    func folderWithSwiftmod() throws -> String {
        let bin = url("bin").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/swiftmod", withDestinationPath: CLI.binary)
        return bin
    }

    /// Copies the files of a folder of this repository (`Examples/SampleApp`) here.
    func copy(_ folder: String) throws {
        let source = CLI.packageRoot + "/" + folder
        for file in try FileManager.default.subpathsOfDirectory(atPath: source) {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: source + "/" + file, isDirectory: &isFolder)
            if !isFolder.boolValue { try write(file, data: try Data(contentsOf: URL(fileURLWithPath: source + "/" + file))) }
        }
    }

    func text(_ relative: String) throws -> String { String(decoding: try read(relative), as: UTF8.self) }

    /// Runs git in this folder (as a fixed author, optionally on a date) and expects it to succeed.
    func git(_ arguments: [String], date: String? = nil) throws {
        var all = ["-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments
        if let date { all += ["--date", "\(date)T12:00:00Z"] }
        let result = try CLI.run("git", all, in: path)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
    }
}

/// Data written by one thread and read by another after a DispatchGroup wait.
final class DataBox: @unchecked Sendable {
    var data = Data()
}
