import Foundation

/// A position in a source file. Lines and columns are 1-based.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The byte offset from the start of the text (0-based).
    public var offset: Int
    /// The line number (1-based).
    public var line: Int
    /// The column in UTF-8 bytes (1-based), as compilers and tree-sitter count.
    public var column: Int
    /// The column in characters (grapheme clusters, 1-based), as a person counts.
    public var characterColumn: Int

    public var description: String { "\(line):\(column)" }
}

/// The text of a Swift source file as UTF-8 bytes, with the line table needed to turn byte
/// offsets into lines and columns.
///
/// A leading UTF-8 byte order mark is not part of the text: `hasByteOrderMark` remembers it so
/// that writers can put it back.
public struct SourceText: Sendable {
    /// The UTF-8 bytes of the text, without a byte order mark.
    public let bytes: [UInt8]
    /// Whether the file this text was read from started with a UTF-8 byte order mark.
    public let hasByteOrderMark: Bool
    /// The byte offset at which each line starts; `lineStarts[0] == 0`.
    public let lineStarts: [Int]

    /// The reasons bytes cannot be read as Swift source.
    public enum DecodingError: Error, CustomStringConvertible, Equatable {
        /// The bytes are not valid UTF-8; `offset` is the first bad byte, `line` its line.
        case invalidUTF8(offset: Int, line: Int)

        public var description: String {
            switch self {
            case let .invalidUTF8(offset, line):
                return "not valid UTF-8 (first bad byte at offset \(offset), line \(line))"
            }
        }
    }

    /// Reads bytes as UTF-8 source text, removing (and remembering) a byte order mark.
    /// - Throws: `DecodingError.invalidUTF8` when the bytes are not UTF-8.
    public init<Bytes: Collection>(utf8 input: Bytes) throws where Bytes.Element == UInt8 {
        var bytes = Array(input)
        var bom = false
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes.removeFirst(3)
            bom = true
        }
        // The standard library validates quickly; the byte loop only runs to locate an error.
        if String(validating: bytes, as: UTF8.self) == nil, let bad = SourceText.firstInvalidUTF8Offset(in: bytes) {
            let line = bytes[..<bad].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw DecodingError.invalidUTF8(offset: bad + (bom ? 3 : 0), line: line)
        }
        self.init(validatedBytes: bytes, hasByteOrderMark: bom)
    }

    /// Whether bytes are UTF-8 (a byte order mark included): ASCII text, most source files, is
    /// checked eight bytes at a time.
    public static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        let ascii = bytes.withUnsafeBytes { buffer -> Bool in
            var index = 0
            let count = buffer.count
            while index + 8 <= count {
                if buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                index += 8
            }
            while index < count {
                if buffer[index] >= 0x80 { return false }
                index += 1
            }
            return true
        }
        return ascii || String(validating: bytes, as: UTF8.self) != nil
    }

    /// Makes source text from a Swift string.
    public init(_ string: String, hasByteOrderMark: Bool = false) {
        self.init(validatedBytes: Array(string.utf8), hasByteOrderMark: hasByteOrderMark)
    }

    private init(validatedBytes bytes: [UInt8], hasByteOrderMark: Bool) {
        self.bytes = bytes
        self.hasByteOrderMark = hasByteOrderMark
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count, let found = memchr(base + offset, 0x0A, buffer.count - offset) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                starts.append(index + 1)
                offset = index + 1
            }
        }
        self.lineStarts = starts
    }

    /// The whole text as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The number of lines (a final line without a newline counts; an empty text has one line).
    public var lineCount: Int { lineStarts.count }

    /// The text of a byte range.
    public func text(in range: Range<Int>) -> String {
        String(decoding: bytes[range.clamped(to: 0..<bytes.count)], as: UTF8.self)
    }

    /// The 1-based line that holds a byte offset.
    public func line(containing offset: Int) -> Int {
        // The last line start that is <= offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// The byte range of a 1-based line, without its line terminator (`\n` or `\r\n`).
    public func contentRange(ofLine line: Int) -> Range<Int> {
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D, line < lineStarts.count { end -= 1 }
        return start..<max(start, end)
    }

    /// The text of a 1-based line, without its line terminator.
    public func text(ofLine line: Int) -> String { text(in: contentRange(ofLine: line)) }

    /// The line and columns of a byte offset.
    public func location(ofByte offset: Int) -> SourceLocation {
        let clamped = min(max(offset, 0), bytes.count)
        let line = line(containing: clamped)
        let start = lineStarts[line - 1]
        let prefix = String(decoding: bytes[start..<clamped], as: UTF8.self)
        return SourceLocation(offset: clamped, line: line, column: clamped - start + 1,
                              characterColumn: prefix.count + 1)
    }

    /// The line terminator the text mostly uses: `"\r\n"` when most of its lines end in CRLF.
    public var dominantLineEnding: String {
        var crlf = 0, lf = 0
        for start in lineStarts.dropFirst() {
            if start >= 2, bytes[start - 2] == 0x0D { crlf += 1 } else { lf += 1 }
        }
        return crlf > lf ? "\r\n" : "\n"
    }

    /// The offset of the first byte that is not part of a valid UTF-8 sequence, or nil.
    static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 { index += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= lower, second <= upper else { return index }
            for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }
}
