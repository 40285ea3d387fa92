import Foundation
import Testing
@testable import Workspace
import TestSupport

/// Atomic writes that never lose a change made by someone else.
@Suite struct AtomicWriterTests {
    @Test func aSecondWriterWaitsForTheFirstAndSeesItsResult() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\n")
        let snapshot = try #require(FileSnapshot(statusOf: path, bytes: Array("let target = 1\n".utf8)))
        // Another swiftmod is between its check and its rename: it holds the file's lock.
        let held = open(path, O_RDONLY)
        #expect(flock(held, LOCK_EX) == 0)
        let outcome = DataBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do {
                try AtomicWriter.replaceContents(of: path, with: Array("let target = 2\n".utf8), expected: snapshot)
                outcome.text = "written"
            } catch is FileChangedError {
                outcome.text = "changed"
            } catch {
                outcome.text = "\(error)"
            }
            done.signal()
        }
        // It waits for the lock...
        #expect(done.wait(timeout: .now() + 0.5) == .timedOut)
        // ...while the other one puts its result in place (a new file renamed over it) and lets go.
        let replacement = try folder.write("B.swift", "let other = 1\n")
        #expect(rename(replacement, path) == 0)
        close(held)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(outcome.text == "changed")
        #expect(try folder.read("A.swift") == Array("let other = 1\n".utf8))
    }

    @Test func aSnapshotNoticesEveryKindOfChange() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\n")
        let read = Array("let target = 1\n".utf8)
        let snapshot = try #require(FileSnapshot(statusOf: path, bytes: read))
        #expect(snapshot.isCurrent(at: path))
        // The same size, written at once (within one timestamp tick, as like as not).
        try folder.write("A.swift", "let target = 2\n")
        #expect(!snapshot.isCurrent(at: path))
        // Replaced by another file with the very same bytes (an editor's save, another rewrite).
        let again = try #require(FileSnapshot(statusOf: path, bytes: Array("let target = 2\n".utf8)))
        let other = try folder.write("B.swift", "let target = 2\n")
        rename(other, path)
        #expect(!again.isCurrent(at: path))
        // Gone.
        let last = try #require(FileSnapshot(statusOf: path, bytes: Array("let target = 2\n".utf8)))
        unlink(path)
        #expect(!last.isCurrent(at: path))
    }

    @Test func theWriterKeepsAFileThatChangedSinceItWasRead() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("A.swift", "let target = 1\n")
        let snapshot = try #require(FileSnapshot(statusOf: path, bytes: Array("let target = 1\n".utf8)))
        try folder.write("A.swift", "let target = 1 // a person's edit\n")
        #expect(throws: FileChangedError.self) {
            try AtomicWriter.replaceContents(of: path, with: Array("let renamed = 1\n".utf8), expected: snapshot)
        }
        #expect(try folder.read("A.swift") == Array("let target = 1 // a person's edit\n".utf8))
        #expect(try folder.temporaryFiles().isEmpty)
    }
}
