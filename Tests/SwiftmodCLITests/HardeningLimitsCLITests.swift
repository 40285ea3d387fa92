import Foundation
import Testing

/// What no input may do to any command: hang on a FIFO, read a device forever, take gigabytes
/// for one big file, overflow the stack on deep nesting, or crash on a damaged history.
@Suite struct HardeningLimitsCLITests {
    static let outlet = "class A { @IBOutlet weak var label: UILabel! }\n"

    /// A repository with one use, a baseline, and a configuration.
    func repository() throws -> Scratch {
        let repo = try Scratch()
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\n")
        try repo.write("A.swift", Self.outlet)
        try repo.git(["init", "-q"])
        #expect(try CLI.swiftmod(["baseline"], in: repo.path).status == 0)
        return repo
    }

    /// swiftmod, stopped after a minute: a hang fails the test instead of the suite.
    func swiftmod(_ arguments: [String], in directory: String) throws -> CLI.Result {
        try CLI.run("timeout", ["60", CLI.binary] + arguments, in: directory)
    }

    @Test(arguments: [["scan"], ["check"], ["baseline"], ["report"], ["run", "strong-iboutlet", "."]])
    func specialFilesAreReportedByKindAndNeverOpened(command: [String]) throws {
        let repo = try repository()
        #expect(mkfifo(repo.url("Pipe.swift").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: repo.url("Zero.swift").path, withDestinationPath: "/dev/zero")
        let socket = try CLI.run("python3", ["-c", "import socket; socket.socket(socket.AF_UNIX).bind('Socket.swift')"], in: repo.path)
        #expect(socket.status == 0, "\(socket.stderr)")
        let result = try swiftmod(command, in: repo.path)
        #expect(result.status == 1, "\(command): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains("Pipe.swift: is a FIFO, not a regular file"), "\(result.stderr)")
        if command.first == "run" {
            // `run` leaves a link out of the tree alone before reading anything.
            #expect(result.stderr.contains("Zero.swift: a symbolic link to /dev/zero, outside the tree; left alone"), "\(result.stderr)")
            let followed = try swiftmod(command + ["--follow-outside-links"], in: repo.path)
            #expect(followed.status == 1)
            #expect(followed.stderr.contains("is a character device, not a regular file"), "\(followed.stderr)")
        } else {
            #expect(result.stderr.contains("is a character device, not a regular file"), "\(result.stderr)")
        }
        #expect(result.stderr.contains("Socket.swift: is a socket, not a regular file"), "\(result.stderr)")
        #expect(!result.stderr.contains("permission"))
    }

    @Test func aConfigurationOrBaselineThatIsNoFileIsAClearErrorNotAHang() throws {
        let repo = try repository()
        try FileManager.default.removeItem(at: repo.url(".swiftmod-baseline.jsonl"))
        #expect(mkfifo(repo.url(".swiftmod-baseline.jsonl").path, 0o644) == 0)
        let fifo = try swiftmod(["check"], in: repo.path)
        #expect(fifo.status == 2, "\(fifo.stderr)")
        #expect(fifo.stderr.contains("it is a FIFO, not a regular file"), "\(fifo.stderr)")
        try FileManager.default.removeItem(at: repo.url(".swiftmod-baseline.jsonl"))
        try FileManager.default.createDirectory(at: repo.url(".swiftmod-baseline.jsonl"), withIntermediateDirectories: true)
        let folder = try swiftmod(["check"], in: repo.path)
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("it is a directory, not a file"), "\(folder.stderr)")
        try FileManager.default.removeItem(at: repo.url(".swiftmod.yml"))
        #expect(mkfifo(repo.url(".swiftmod.yml").path, 0o644) == 0)
        let config = try swiftmod(["scan"], in: repo.path)
        #expect(config.status == 2)
        #expect(config.stderr.contains(".swiftmod.yml: is a FIFO, not a regular file"), "\(config.stderr)")
    }

    @Test func bigFilesAreSkippedWithANoteAndKeepTheirBaselineEntries() throws {
        let repo = try repository()
        let filler = String(repeating: "// generated line of filler text\n", count: 160_000)  // 5.3 MB
        try repo.write("Big.swift", filler + Self.outlet)
        // Recorded with a higher limit: the big file has an entry in the baseline.
        #expect(try swiftmod(["baseline", "--max-file-size", "10MB"], in: repo.path).status == 0)
        #expect(try repo.text(".swiftmod-baseline.jsonl").contains("Big.swift"))
        for command in [["scan"], ["check", "--strict"], ["baseline"], ["baseline", "--prune"], ["report"], ["run", "strong-iboutlet", "."]] {
            let result = try swiftmod(command, in: repo.path)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let said = "Big.swift: skipped: 5 MB is over the 4 MB file size limit"
            if ["scan", "check"].contains(command[0]) {
                // Named among the findings (as a warning: its one outlet is in the baseline).
                #expect(result.stdout.contains("Big.swift:1:1: warning: not judged: 5 MB is over the 4 MB file size limit"), "\(command): \(result.stdout)")
                #expect(result.stderr.contains("1 file not judged"), "\(command): \(result.stderr)")
            } else {
                #expect(result.stderr.contains("note: \(command[0] == "run" ? said : said.replacingOccurrences(of: "Big.swift: skipped: ", with: "Big.swift: not judged: "))"),
                        "\(command): \(result.stderr)")
                #expect(!result.stdout.contains("Big.swift"), "\(command)")
            }
        }
        // A second outlet in it could be a new use: the check cannot pass without judging it.
        try repo.write("Big.swift", filler + Self.outlet + Self.outlet)
        let grown = try swiftmod(["check"], in: repo.path)
        #expect(grown.status == 1)
        #expect(grown.stdout.contains("Big.swift:1:1: error: not judged: 5 MB") && grown.stdout.contains("may hold new uses of strong-iboutlet"), "\(grown.stdout)")
        #expect(grown.stderr.contains("swiftmod check: fails: 1 file not judged may hold new uses; no new uses"), "\(grown.stderr)")
        try repo.write("Big.swift", filler + Self.outlet)
        // Skipped files keep their entries: the ratchet does not mistake them for fixed uses.
        #expect(try repo.text(".swiftmod-baseline.jsonl").contains("Big.swift"))
        // The limit is configurable in the configuration too.
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\nmax-file-size: 8MB\n")
        let scan = try swiftmod(["scan"], in: repo.path)
        #expect(scan.stdout.contains("Big.swift:160001:"), "\(scan.stdout)")
        try repo.write(".swiftmod.yml", "migrations:\n  - codemod: strong-iboutlet\nmax-file-size: lots\n")
        let bad = try swiftmod(["scan"], in: repo.path)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("max-file-size"))
    }

    @Test func deepNestingParsesAndPrints() throws {
        let repo = try Scratch()
        let depth = 20_000
        try repo.write("Deep.swift", "let v = " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth) + "\n")
        let result = try swiftmod(["parse", "Deep.swift"], in: repo.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("(source_file"))
    }

    @Test func aCatastrophicPatternIsAUsageErrorNamingFileAndField() throws {
        let repo = try Scratch()
        try repo.write("Tools/slow.yml", """
        id: slow
        summary: Slow
        why: Because.
        match:
          query: "(property_declaration) @id"
          constraints:
            id: { matches: "^(\\\\w+\\\\s?)+$" }
        """)
        try repo.write("A.swift", "let thisisalongidentifierwithmanyletters = y!\n")
        let result = try swiftmod(["run", "slow", "A.swift", "--codemods", "Tools"], in: repo.path)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("slow.yml: field 'match.constraints.id.matches': the regular expression"), "\(result.stderr)")
    }

    /// Damage another program (or a hand edit) could do; the NOT NULL columns are made nullable first.
    static let nullable = "PRAGMA writable_schema=ON; UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') WHERE type = 'table';"

    @Test(arguments: ["UPDATE count SET uses = NULL", "UPDATE count SET uses = 'many'", "UPDATE snapshot SET date = NULL",
                      "UPDATE snapshot SET date = 20261122"])
    func aDamagedHistoryIsAClearError(damage: String) throws {
        let repo = try repository()
        #expect(try swiftmod(["report", "--record"], in: repo.path).status == 0)
        let history = repo.url(".swiftmod/history.sqlite").path
        let sqlite = try CLI.run("python3", ["-c", """
            import sqlite3, sys
            for script in sys.argv[2:]:
                db = sqlite3.connect(sys.argv[1]); db.executescript(script); db.commit(); db.close()
            """, history, Self.nullable, damage + ";"])
        #expect(sqlite.status == 0, "\(sqlite.stderr)")
        let result = try swiftmod(["report"], in: repo.path)
        #expect(result.status == 2, "\(damage): \(result.stderr)")
        #expect(result.stderr.contains("history.sqlite: not a usable swiftmod history database"), "\(result.stderr)")
    }
}
