import Foundation

/// Runs git, returning its standard output, or nil when git is missing or fails.
public enum Git {
    /// The commit checked out in a folder's repository, or nil outside git.
    public static func head(in directory: String) -> String? {
        commit(named: "HEAD", in: directory)
    }

    /// The full SHA of the commit a ref or (abbreviated) SHA names in a folder's repository
    /// (a tag is peeled to its commit), or nil when it names no commit there or outside git.
    public static func commit(named name: String, in directory: String) -> String? {
        // An option-like name would be read as an option; no ref starts with a dash.
        guard !name.isEmpty, !name.hasPrefix("-") else { return nil }
        return run(["rev-parse", "--verify", "--quiet", "\(name)^{commit}"], in: directory)
            .map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
            .flatMap { $0.isEmpty ? nil : $0 }
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

    /// The files git does not track and does not ignore, as paths relative to the work tree's
    /// top folder `top` (under `paths` only, when given); nil when git fails.
    public static func untrackedFiles(top: String, under paths: [String] = []) -> [String]? {
        run(["ls-files", "--others", "--exclude-standard", "-z", "--"] + paths, in: top).map { output in
            output.split(separator: 0).filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
        }
    }

    private static let topLevelLock = NSLock()
    nonisolated(unsafe) private static var topLevels: [String: String?] = [:]

    /// Runs git in a folder and returns what it printed, or nil when it failed.
    /// - Parameter input: bytes for its standard input (for `cat-file --batch`), passed through a
    ///   temporary file so that git stopping early cannot block or break the writer.
    public static func run(_ arguments: [String], in directory: String, input: [UInt8]? = nil) -> [UInt8]? {
        // Standard input: the bytes through an unlinked temporary file, or nothing.
        var inputDescriptor: Int32 = -1
        if let input {
            let path = (NSTemporaryDirectory() as NSString).appendingPathComponent("swiftmod-git-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: path, contents: Data(input)) else { return nil }
            inputDescriptor = open(path, O_RDONLY | O_CLOEXEC)
            unlink(path)  // open, so git still reads it; nothing is left behind
            guard inputDescriptor >= 0 else { return nil }
        }
        defer { if inputDescriptor >= 0 { close(inputDescriptor) } }
        return spawn(["git", "-C", directory] + arguments, input: inputDescriptor)
    }

    /// A parent that started swiftmod with SIGCHLD ignored (some supervisors and CI agents do)
    /// would have finished children reaped away, so `waitpid` could not tell whether git
    /// succeeded: the default disposition is restored once, before the first child.
    private static let childrenAreWaitedFor: Void = {
        signal(SIGCHLD, SIG_DFL)
    }()

    /// Runs a program found on the PATH with `posix_spawn` and waits for it with `waitpid`
    /// (Foundation's `Process` polls for the end every 50 ms, which made each git call cost that
    /// much). Standard error goes to /dev/null; standard output is returned when it exits with 0.
    static func spawn(_ argv: [String], input: Int32) -> [UInt8]? {
        _ = childrenAreWaitedFor
        // Not inherited by programs other threads spawn meanwhile (which would hold the pipe open).
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input >= 0 {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var child = pid_t()
        #if canImport(Darwin)
        let environment = _NSGetEnviron().pointee
        #else
        let environment = environ
        #endif
        let spawned = posix_spawnp(&child, argv[0], &actions, nil, cArguments, environment)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            return nil
        }
        // Read to the end before waiting, so a child with much to say never blocks on a full pipe.
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(readEnd)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // Exited normally (no signal) with status 0.
        return (status & 0x7F) == 0 && ((status >> 8) & 0xFF) == 0 ? output : nil
    }
}
