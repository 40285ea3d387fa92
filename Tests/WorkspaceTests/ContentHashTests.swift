import Foundation
import Testing
@testable import Workspace

/// The content hash that tells an unchanged file, and an intact cache, from a changed one.
@Suite struct ContentHashTests {
    /// Deterministic bytes (a linear congruential generator): the same in every run.
    private func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    @Test func isSipHash24AsItsAuthorsTestVectorsSay() {
        // The reference implementation's vectors: key 00…0f, messages 00, 00 01, … (and an
        // implementation of our own in Python for the longer ones).
        let key: (UInt64, UInt64) = (0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908)
        let expected: [Int: UInt64] = [0: 0x726f_db47_dd0e_0e31, 1: 0x74f8_39c5_93dc_67fd, 7: 0xab02_00f5_8b01_d137,
                                       8: 0x93f5_f579_9a93_2462, 15: 0xa129_ca61_49be_45e5, 63: 0x958a_324c_eb06_4572]
        for (count, hash) in expected {
            let message = (0..<count).map { UInt8($0) }
            #expect(message.withUnsafeBytes { ContentHash.sipHash24($0, key: key) } == hash, "\(count) bytes")
        }
    }

    @Test func everyOneBitChangeChangesTheHash() {
        // Every length around the eight-byte words, every bit of every byte.
        for length in [1, 7, 8, 9, 15, 16, 17, 64, 100] {
            let original = bytes(length, seed: UInt64(length))
            let hash = ContentHash.of(original)
            for index in original.indices {
                for bit in 0..<8 {
                    var changed = original
                    changed[index] ^= UInt8(1 << bit)
                    #expect(ContentHash.of(changed) != hash, "length \(length), byte \(index), bit \(bit)")
                }
            }
        }
    }

    @Test func trailingZerosAndTheEmptyInputHaveTheirOwnHashes() {
        // (The last word is padded with zeros: the length tells them apart.)
        let hashes = (0...17).map { ContentHash.of([UInt8](repeating: 0, count: $0)) }
        #expect(Set(hashes).count == hashes.count)
        #expect(ContentHash.of(Array("a".utf8)) != ContentHash.of(Array("a\0".utf8)))
    }

    @Test func aChangeAnywhereMovesAboutHalfTheBits() {
        // Avalanche: over many one-byte changes, each output bit flips about half the time.
        var flips = [Int](repeating: 0, count: 64)
        var trials = 0
        for seed in 0..<200 {
            let original = bytes(33, seed: UInt64(seed))
            var changed = original
            changed[seed % 33] &+= 1
            let difference = ContentHash.of(original) ^ ContentHash.of(changed)
            for bit in 0..<64 where difference & (1 << UInt64(bit)) != 0 { flips[bit] += 1 }
            trials += 1
        }
        for (bit, count) in flips.enumerated() {
            #expect(count > trials / 4 && count < trials * 3 / 4, "bit \(bit) flipped \(count) times in \(trials)")
        }
    }

    @Test func theSameBytesGiveTheSameHashWhereverTheyStart() {
        // (Words are read unaligned: a slice at an odd offset hashes as a copy does.)
        let all = bytes(101, seed: 7)
        let slice = Array(all[3..<90])
        let hash = all.withUnsafeBytes { ContentHash.of(UnsafeRawBufferPointer(rebasing: $0[3..<90])) }
        #expect(hash == ContentHash.of(slice))
        #expect(ContentHash.hex(slice).count == 16)
    }
}

/// Caches written while the command goes on.
@Suite struct BackgroundCacheWriteTests {
    @Test func aCacheWrittenInTheBackgroundIsReadAsWrittenAndInOrder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A slow payload: a read right after must wait for it, not find nothing.
        CacheFile.writeInBackground(path, format: "f", key: "k") {
            Thread.sleep(forTimeInterval: 0.2)
            return [1, 2, 3]
        }
        #expect(CacheFile.read(path, format: "f", key: "k") == [1, 2, 3])
        // A write asked later lands later, whichever way each is written.
        CacheFile.writeInBackground(path, format: "f", key: "k") {
            Thread.sleep(forTimeInterval: 0.2)
            return [4]
        }
        CacheFile.write(path, format: "f", key: "k", payload: [5])
        #expect(CacheFile.read(path, format: "f", key: "k") == [5])
        CacheFile.writeInBackground(path, format: "f", key: "k") { [6] }
        CacheFile.waitForWrites()
        #expect(CacheFile.read(path, format: "f", key: "other") == nil)
        #expect(CacheFile.read(path, format: "f", key: "k") == [6])
    }

    @Test func aWriteRemovesWhatAKilledWriterLeftAndLeavesNothingOfItsOwn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caches-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/c.cache"
        CacheFile.write(path, format: "f", key: "k", payload: [1])
        // A run killed while writing (its process gone) left its temporary file.
        let left = folder + "/.c.cache.swiftmod-999999-ABCDEF"
        #expect(FileManager.default.createFile(atPath: left, contents: Data([0])))
        CacheFile.writeInBackground(path, format: "f", key: "k") { [2] }
        CacheFile.waitForWrites()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["c.cache"])
        #expect(CacheFile.read(path, format: "f", key: "k") == [2])
        // Cut short before the cache's first write ended: no cache beside it, still removed.
        let orphan = folder + "/.d.cache.swiftmod-999999-ABCDEF"
        #expect(FileManager.default.createFile(atPath: orphan, contents: Data([0])))
        CacheFile.write(folder + "/d.cache", format: "f", key: "k", payload: [3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["c.cache", "d.cache"])
    }
}
