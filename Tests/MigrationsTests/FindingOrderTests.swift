import Testing
@testable import Migrations

/// A scan's findings are merged and thinned in place (`add`, `remove(at:)`): the same findings,
/// in the same order, as sorting and filtering copies of them gives.
@Suite struct FindingOrderTests {
    static func finding(file: String, line: Int, column: Int, migration: String) -> Finding {
        Finding(kind: .use, migration: migration, codemod: migration, file: file, line: line, column: column,
                endLine: line, endColumn: column + 1, text: "\(file):\(line):\(column) \(migration)", scope: "", inErrorRegion: false)
    }

    static func random(_ count: Int, using generator: inout some RandomNumberGenerator) -> [Finding] {
        (0..<count).map { _ in
            finding(file: ["A.swift", "B.swift", "b.swift", "Ü.swift", "Z/A.swift"].randomElement(using: &generator)!,
                    line: Int.random(in: 1...6, using: &generator), column: Int.random(in: 1...3, using: &generator),
                    migration: ["m1", "m2"].randomElement(using: &generator)!)
        }
    }

    @Test func addingMergesAsSortingBoth() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let old = Self.random(Int.random(in: 0...40, using: &generator), using: &generator)
            let more = Self.random(Int.random(in: 0...6, using: &generator), using: &generator)
            // Mostly in order already (a scan's), sometimes not.
            var merged = round % 5 == 0 ? old : old.sorted(by: Finding.inScanOrder)
            let expected = (merged + more).sorted(by: Finding.inScanOrder)
            merged.add(more)
            #expect(merged.map(\.text) == expected.map(\.text), "round \(round)")
        }
    }

    @Test func aTieKeepsTheFindingsThereFirst() {
        var findings = [Self.finding(file: "A.swift", line: 1, column: 1, migration: "m"), Self.finding(file: "A.swift", line: 2, column: 1, migration: "m")]
        findings[1].text = "there"
        var new = Self.finding(file: "A.swift", line: 2, column: 1, migration: "m")
        new.text = "new"
        findings.add([new])
        #expect(findings.map(\.text) == ["A.swift:1:1 m", "there", "new"])
    }

    @Test func removingKeepsTheRestInOrder() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            var findings = Self.random(Int.random(in: 0...30, using: &generator), using: &generator)
            for index in findings.indices { findings[index].text += " #\(index)" }
            let positions = findings.indices.filter { _ in Bool.random(using: &generator) }
            let expected = findings.indices.filter { !positions.contains($0) }.map { findings[$0].text }
            findings.remove(at: positions)
            #expect(findings.map(\.text) == expected, "round \(round)")
        }
    }
}
