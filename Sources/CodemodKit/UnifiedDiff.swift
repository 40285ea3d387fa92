import Foundation
import SwiftTree
import Workspace

/// A unified diff of one file, made from its edits, that `git apply` accepts.
public struct UnifiedDiff {
    /// Lines of context around each change.
    public var context = 3

    public init(context: Int = 3) { self.context = context }

    /// The diff between a source and the source with edits applied; empty when nothing changes.
    public func render(path: String, source: SourceText, edits: EditSet) -> String {
        let blocks = changeBlocks(source: source, edits: edits)
        guard !blocks.isEmpty else { return "" }
        let name = Self.patchName(path)
        var output = "--- \(Self.headerName("a/" + name))\n+++ \(Self.headerName("b/" + name))\n"
        var delta = 0  // new line number minus old line number before the current hunk
        var index = 0
        while index < blocks.count {
            // Blocks whose context windows touch share a hunk.
            var last = index
            while last + 1 < blocks.count, blocks[last + 1].firstLine - blocks[last].lastLine - 1 <= 2 * context {
                last += 1
            }
            let hunkStart = max(1, blocks[index].firstLine - context)
            let hunkEnd = min(source.lineCount - (source.bytes.last == 0x0A ? 1 : 0), blocks[last].lastLine + context)
            var body = ""
            var oldCount = 0, newCount = 0
            var line = hunkStart
            var blockDelta = 0
            for block in blocks[index...last] {
                while line < block.firstLine {
                    body += " " + lineText(source, line)
                    oldCount += 1; newCount += 1; line += 1
                }
                for old in stride(from: block.firstLine, through: block.lastLine, by: 1) {
                    body += "-" + lineText(source, old)
                    oldCount += 1
                }
                for (offset, new) in block.newLines.enumerated() {
                    body += "+" + byteOrderMark(source, block.firstLine + offset) + terminated(new)
                    newCount += 1
                }
                blockDelta += block.newLines.count - (block.lastLine - block.firstLine + 1)
                line = block.lastLine + 1
            }
            while line <= hunkEnd {
                body += " " + lineText(source, line)
                oldCount += 1; newCount += 1; line += 1
            }
            let newStart = newCount == 0 ? hunkStart + delta - 1 : hunkStart + delta
            output += "@@ -\(range(hunkStart, oldCount)) +\(range(newStart, newCount)) @@\n" + body
            delta += blockDelta
            index = last + 1
        }
        return output
    }

    /// A file's name in the diff, as `git apply` run from `folder` (default: the current folder)
    /// finds it: a relative path as given; an absolute one relative to the folder, by the text
    /// (`Sources/x.swift`, or `../Other/x.swift` outside it, which `git apply` takes with
    /// `--unsafe-paths`, as it takes any file outside the folder it applies in). Never `a//abs`.
    public static func patchName(_ path: String, from folder: String = FileManager.default.currentDirectoryPath) -> String {
        guard path.hasPrefix("/") else { return path }
        return DisplayPath.relative(path, from: folder)
    }

    /// A name as git writes it in `---`/`+++` lines: in double quotes with C escapes (`\t`, `\n`,
    /// `\"`, `\\`, octal for other control bytes) when it holds such a byte, and followed by a tab
    /// when it holds a space (so `patch` too reads the whole name). UTF-8 stays as it is.
    static func headerName(_ name: String) -> String {
        let named: [UInt8: String] = [0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f",
                                      0x0D: "\\r", 0x22: "\\\"", 0x5C: "\\\\"]
        let needsQuotes = name.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C }
        guard needsQuotes else { return name.contains(" ") ? name + "\t" : name }
        var quoted = "\""
        var plain: [UInt8] = []
        func flush() {
            quoted += String(decoding: plain, as: UTF8.self)
            plain.removeAll()
        }
        for byte in name.utf8 {
            if let escape = named[byte] {
                flush()
                quoted += escape
            } else if byte < 0x20 || byte == 0x7F {
                flush()
                let octal = String(byte, radix: 8)
                quoted += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            } else {
                plain.append(byte)
            }
        }
        flush()
        return quoted + "\""
    }

    private func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    /// A run of old lines replaced by new lines.
    struct Block {
        var firstLine: Int
        var lastLine: Int
        var newLines: [String] = []
    }

    private func changeBlocks(source: SourceText, edits: EditSet) -> [Block] {
        // Group edits whose line spans overlap or touch.
        var groups: [(first: Int, last: Int, edits: [Edit])] = []
        for edit in edits.edits {
            let first = source.line(containing: edit.range.lowerBound)
            var last = source.line(containing: edit.range.isEmpty ? edit.range.lowerBound : edit.range.upperBound - 1)
            if !edit.range.isEmpty, source.bytes[edit.range.upperBound - 1] == 0x0A, last < source.lineCount,
               edit.range.upperBound < source.bytes.count {
                last += 1  // removing a line break joins the next line
            }
            if let group = groups.last, first <= group.last + 1 {
                // In place: a copy of the group would copy its edits on every append (quadratic
                // for a file whose every line changes).
                groups[groups.count - 1].last = max(group.last, last)
                groups[groups.count - 1].edits.append(edit)
            } else {
                groups.append((first, last, [edit]))
            }
        }
        return groups.compactMap { group in
            let start = source.lineStarts[group.first - 1]
            let end = group.last < source.lineCount ? source.lineStarts[group.last] : source.bytes.count
            var new: [UInt8] = []
            var cursor = start
            for edit in group.edits {
                new += source.bytes[cursor..<edit.range.lowerBound]
                new += Array(edit.replacement.utf8)
                cursor = edit.range.upperBound
            }
            new += source.bytes[cursor..<end]
            if Array(source.bytes[start..<end]) == new { return nil }
            // Lines the edits leave as they were, at either end, are context, not changes (a
            // removal that ends before the next line's indentation rewrites that line unchanged).
            let oldLines = splitLines(Array(source.bytes[start..<end])), newLines = splitLines(new)
            // The first line of a file with a byte order mark carries the mark in the diff: a block
            // that starts there is not trimmed, so that a line put before it does not take the mark along.
            let keepsWhole = group.first == 1 && source.hasByteOrderMark
            var prefix = 0
            while !keepsWhole, prefix < oldLines.count, prefix < newLines.count, oldLines[prefix].utf8.elementsEqual(newLines[prefix].utf8) { prefix += 1 }
            var suffix = 0
            while !keepsWhole, suffix < oldLines.count - prefix, suffix < newLines.count - prefix,
                  oldLines[oldLines.count - 1 - suffix].utf8.elementsEqual(newLines[newLines.count - 1 - suffix].utf8) { suffix += 1 }
            return Block(firstLine: group.first + prefix, lastLine: group.last - suffix,
                         newLines: Array(newLines[prefix..<(newLines.count - suffix)]))
        }
    }

    private func splitLines(_ bytes: [UInt8]) -> [String] {
        var lines: [String] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append(String(decoding: bytes[start...index], as: UTF8.self))
            start = index + 1
        }
        if start < bytes.count { lines.append(String(decoding: bytes[start...], as: UTF8.self)) }
        return lines
    }

    private func lineText(_ source: SourceText, _ line: Int) -> String {
        let start = source.lineStarts[line - 1]
        let end = line < source.lineCount ? source.lineStarts[line] : source.bytes.count
        return byteOrderMark(source, line) + terminated(String(decoding: source.bytes[start..<end], as: UTF8.self))
    }

    /// The file's first line starts with its byte order mark, which git compares like any byte.
    private func byteOrderMark(_ source: SourceText, _ line: Int) -> String {
        line == 1 && source.hasByteOrderMark ? "\u{FEFF}" : ""
    }

    private func terminated(_ line: String) -> String {
        // Compare bytes: in Swift "\r\n" is one Character, so hasSuffix("\n") would miss it.
        line.utf8.last == 0x0A ? line : line + "\n\\ No newline at end of file\n"
    }
}
