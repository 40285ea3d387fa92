import Testing
@testable import SwiftTree

@Suite struct ErrorRegionTests {
    @Test func emptyTupleIsNotAnError() throws {
        let tree = Parser().parse("""
        func run() {
            completion(())
            let unit = ()
            let spaced = ( )
            subject.send(())
        }

        """)
        #expect(tree.errorRegions.isEmpty)
        #expect(!tree.hasErrors)
        // The quirk is really there: the MISSING node exists, it is only not counted.
        let missing = tree.root.descendants.filter(\.isMissing)
        #expect(missing.count == 4)
        #expect(missing.allSatisfy { $0.kind == "!" && $0.byteRange.isEmpty })
    }

    @Test func realErrorsAreFound() throws {
        let tree = Parser().parse("""
        class A {
            func f() {
                let x = (1 +
            }
        }

        """)
        #expect(tree.hasErrors)
        let region = try #require(tree.errorRegions.first)
        #expect(region.start.line == 3)
    }

    @Test func missingBangOutsideEmptyTupleIsAnError() {
        // A zero-width MISSING node elsewhere still counts.
        let tree = Parser().parse("let value = foo(\n")
        #expect(tree.hasErrors)
    }

    @Test func modernSwiftParsesCleanly() {
        let tree = Parser().parse("""
        struct Cache {
            #if DEBUG
            var log: [String] = []
            #endif
            nonisolated(unsafe) static var shared = Cache()
            func load() throws(LoadError) -> Int { 1 }
        }

        """)
        #expect(tree.errorRegions.map(\.description) == [])
    }
}
