import Foundation
import Testing

/// The fast paths never change results: on a generated corpus (scripts/generate-corpus.py), a
/// prefiltered scan, an unfiltered one, a cold one and a warm (cached) one all find exactly the
/// uses the generator planted; a corrupt cache is ignored; `--changed-since` checks only what
/// changed. (Timings are measured by scripts/benchmark, not asserted here.)
@Suite struct PerformanceModesTests {
    func corpus() throws -> (Scratch, [String: Int]) {
        let scratch = try Scratch()
        let generated = try CLI.run("python3", [CLI.packageRoot + "/scripts/generate-corpus.py", scratch.path, "--lines", "30000", "--seed", "11"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let info = try #require(try JSONSerialization.jsonObject(with: generated.stdoutBytes) as? [String: Any])
        let uses = try #require(info["uses"] as? [String: Int])
        #expect(uses.values.allSatisfy { $0 > 0 })
        return (scratch, uses)
    }

    func counts(_ result: CLI.Result) throws -> [String: Int] {
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdoutBytes) as? [String: Any])
        var counts: [String: Int] = [:]
        for finding in object["findings"] as? [[String: Any]] ?? [] where finding["kind"] as? String == "use" {
            counts[finding["migration"] as! String, default: 0] += 1
        }
        return counts
    }

    @Test func everyModeFindsThePlantedUses() throws {
        let (repo, expected) = try corpus()
        let cold = try CLI.swiftmod(["scan", "--format", "json", "--no-cache"], in: repo.path)
        #expect(try counts(cold) == expected)
        let unfiltered = try CLI.swiftmod(["scan", "--format", "json", "--no-cache", "--no-prefilter"], in: repo.path)
        #expect(try counts(unfiltered) == expected)
        #expect(unfiltered.stdout == cold.stdout)
        let first = try CLI.swiftmod(["scan", "--format", "json", "--jobs", "1"], in: repo.path)
        let warm = try CLI.swiftmod(["scan", "--format", "json"], in: repo.path)
        #expect(first.stdout == cold.stdout)
        #expect(warm.stdout == cold.stdout)
        #expect(FileManager.default.fileExists(atPath: repo.url(".swiftmod/cache/scan.cache").path))

        // A cache that was tampered with is not trusted.
        var cache = try repo.read(".swiftmod/cache/scan.cache")
        let index = try #require(cache.lastIndex(of: UInt8(ascii: "0")))
        cache[index] = UInt8(ascii: "9")
        try cache.write(to: repo.url(".swiftmod/cache/scan.cache"))
        #expect(try CLI.swiftmod(["scan", "--format", "json"], in: repo.path).stdout == cold.stdout)
        try Data("garbage".utf8).write(to: repo.url(".swiftmod/cache/scan.cache"))
        #expect(try CLI.swiftmod(["scan", "--format", "json"], in: repo.path).stdout == cold.stdout)

        // An edited file is scanned again, not taken from the cache.
        let file = "Modules/Module00/Sources/Module00/File00000.swift"
        try repo.write(file, try repo.text(file) + "\nlet added = UIWebView()\n")
        var more = expected
        more["webview", default: 0] += 1
        #expect(try counts(try CLI.swiftmod(["scan", "--format", "json"], in: repo.path)) == more)
    }

    @Test func changedSinceChecksOnlyWhatChanged() throws {
        let (repo, _) = try corpus()
        for arguments in [["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "c"]] {
            #expect(try CLI.run("git", arguments, in: repo.path).status == 0)
        }
        _ = try CLI.swiftmod(["baseline"], in: repo.path)
        // Committed: a baseline changed since the revision makes the check a full one.
        for arguments in [["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "baseline"]] {
            #expect(try CLI.run("git", arguments, in: repo.path).status == 0)
        }
        let clean = try CLI.swiftmod(["check", "--changed-since", "HEAD"], in: repo.path)
        #expect(clean.status == 0)
        #expect(clean.stderr.contains("; 0 files checked"), "\(clean.stderr)")
        let file = "Modules/Module03/Sources/Module03/File00003.swift"
        try repo.write(file, try repo.text(file) + "\nlet added = UIWebView()\n")
        try repo.write("Modules/New/Brand.swift", "final class Brand { @IBOutlet weak var logo: UIImageView! }\n")
        let changed = try CLI.swiftmod(["check", "--changed-since", "HEAD", "--format", "json"], in: repo.path)
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("in 2 files; 2 files checked"), "\(changed.stderr)")
        #expect(try counts(changed) == ["webview": 1, "strong-iboutlet": 1])
        let bad = try CLI.swiftmod(["check", "--changed-since", "no-such-ref"], in: repo.path)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("not a git revision"))
    }
}
