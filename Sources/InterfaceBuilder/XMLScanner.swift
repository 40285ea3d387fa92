import Foundation

/// A strict reader of an XML document's elements, for the storyboards and xibs Xcode writes:
/// start tags with their attributes (entities decoded when asked for), end tags, each with its
/// line; comments, processing instructions, a DOCTYPE, CDATA and text are passed over.
///
/// Read by hand because Foundation's `XMLParser` was most of what reading hundreds of storyboards
/// cost. It is as strict as a reader must be to say a file is damaged: tags that do not match, a
/// tag or a document left open, an `&` that is no reference, text outside the root element (a
/// merge conflict's markers), bytes that are not UTF-8.
struct XMLScanner {
    /// Why the bytes are not well-formed XML, and where.
    struct Failure: Error {
        var line: Int
        var reason: String
    }

    /// A start tag: its name, its attributes (by their place in the bytes) and its line (that of
    /// its `>`, as libxml2 counts).
    struct StartTag {
        let bytes: [UInt8]
        let nameRange: Range<Int>
        let attributes: [(name: Range<Int>, value: Range<Int>)]
        let line: Int

        var name: String { String(decoding: bytes[nameRange], as: UTF8.self) }

        func hasName(_ name: [UInt8]) -> Bool { XMLScanner.equal(bytes[nameRange], name) }

        /// An attribute's value, its references decoded (`&amp;` → `&`); nil when absent.
        func attribute(_ name: String) -> String? {
            var name = name
            let found = name.withUTF8 { wanted in attributes.first { XMLScanner.equal(bytes[$0.name], wanted) } }
            return found.map { XMLScanner.decoded(bytes[$0.value]) }
        }
    }

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var sawDoctype = false

    /// Reads a document's bytes (UTF-8, or UTF-16 with its byte order mark), calling `start` and
    /// `end` for each element in order. `start` may stop the reading by throwing.
    /// - Throws: `Failure` where the XML breaks; what `start` throws.
    static func scan(_ data: [UInt8], start: (StartTag) throws -> Void, end: (_ nameRange: Range<Int>, _ bytes: [UInt8]) -> Void) throws {
        let bytes = try utf8(data)
        if let control = bytes.firstIndex(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            throw Failure(line: bytes[..<control].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 },
                          reason: "not well-formed XML (a control character, U+\(String(format: "%04X", bytes[control])), which XML cannot hold)")
        }
        var scanner = XMLScanner(bytes: bytes)
        try scanner.run(start: start, end: end)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Where some bytes first occur in others (by offset in `bytes`), if they do. By hand: the
    /// standard library's `firstRange(of:)` costs more than reading a whole document.
    static func firstOffset(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (bytes.startIndex...(bytes.endIndex - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// A document's bytes as UTF-8: UTF-8 (with or without its byte order mark), UTF-16 (with a
    /// byte order mark, or without one, as `<` in two bytes shows), or what the XML declaration
    /// names (`encoding="ISO-8859-1"`, `windows-1252`, `US-ASCII`).
    /// The `encoding` an XML declaration (`<?xml version="1.0" encoding="UTF-8"?>`) names, in
    /// lower case; nil when it names none.
    static func declaredEncoding(_ declaration: ArraySlice<UInt8>) -> String? {
        let key = Array("encoding".utf8)
        let spaces: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
        var start = declaration.startIndex
        while let found = firstOffset(of: key, in: declaration[start...]) {
            var index = found + key.count
            start = index
            while index < declaration.endIndex, spaces.contains(declaration[index]) { index += 1 }
            guard index < declaration.endIndex, declaration[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < declaration.endIndex, spaces.contains(declaration[index]) { index += 1 }
            guard index < declaration.endIndex, declaration[index] == UInt8(ascii: "\"") || declaration[index] == UInt8(ascii: "'") else { continue }
            let nameStart = index + 1
            index = nameStart
            while index < declaration.endIndex {
                let byte = declaration[index]
                let isNameByte = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                guard isNameByte else { break }
                index += 1
            }
            // (Either quote closes it, as the regular expression this replaces read it.)
            guard index < declaration.endIndex, declaration[index] == UInt8(ascii: "\"") || declaration[index] == UInt8(ascii: "'"), index > nameStart else { continue }
            return String(decoding: declaration[nameStart..<index], as: UTF8.self).lowercased()
        }
        return nil
    }

    static func utf8(_ data: [UInt8]) throws -> [UInt8] {
        var encoding: String.Encoding?
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16
        } else if data.starts(with: [0x3C, 0x00]) {
            encoding = .utf16LittleEndian
        } else if data.starts(with: [0x00, 0x3C]) {
            encoding = .utf16BigEndian
        } else if data.starts(with: [0xEF, 0xBB, 0xBF]) {
            return try utf8(Array(data.dropFirst(3)))
        } else if data.starts(with: Array("<?xml".utf8)), let end = data.firstIndex(of: UInt8(ascii: ">")) {
            if let name = declaredEncoding(data[..<end]) {
                switch name {
                case "utf-8", "utf8": break
                case "iso-8859-1", "latin1", "iso_8859-1", "l1": encoding = .isoLatin1
                case "windows-1252", "cp1252": encoding = .windowsCP1252
                case "us-ascii", "ascii": encoding = .ascii
                case "utf-16", "utf-16le", "utf-16be": throw Failure(line: 1, reason: "not well-formed XML (it says UTF-16, but is not)")
                default: throw Failure(line: 1, reason: "not read: its encoding, \(name), is none Xcode writes (UTF-8)")
                }
            }
        }
        guard let encoding else {
            guard String(validating: data, as: UTF8.self) != nil else { throw Failure(line: lineOfInvalidUTF8(data), reason: "not well-formed XML (not UTF-8)") }
            return data
        }
        guard let text = String(data: Data(data), encoding: encoding) else { throw Failure(line: 1, reason: "not well-formed XML (not \(encoding), as it says)") }
        return Array(text.utf8)
    }

    private func failure(_ reason: String) -> Failure { Failure(line: line, reason: "not well-formed XML (\(reason))") }

    private mutating func run(start: (StartTag) throws -> Void, end: (Range<Int>, [UInt8]) -> Void) throws {
        var open: [(name: Range<Int>, line: Int)] = []
        var sawRoot = false
        var attributes: [(name: Range<Int>, value: Range<Int>)] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte != UInt8(ascii: "<") {
                try text(inside: !open.isEmpty)
                continue
            }
            if starts(with: "<?") {
                // (`<?xml …?>` declares the document: only at its very start.)
                if offset > 0, offset + 5 < bytes.count, bytes[(offset + 2)..<(offset + 5)].map({ $0 | 0x20 }) == Array("xml".utf8),
                   [0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: "?")].contains(bytes[offset + 5]) {
                    throw failure("an XML declaration that is not at the start of the file")
                }
                try skip(past: "?>", what: "a processing instruction")
            } else if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<![CDATA[") {
                guard !open.isEmpty else { throw failure("CDATA outside the root element") }
                try skip(past: "]]>", what: "a CDATA section")
            } else if starts(with: "<!DOCTYPE") {
                guard !sawRoot else { throw failure("a DOCTYPE after the root element") }
                sawDoctype = true
                try skipDoctype()
            } else if starts(with: "</") {
                offset += 2
                let name = try self.name()
                skipSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ">") else { throw failure("`>` should end the end tag `</\(text(name))`") }
                offset += 1
                guard let last = open.popLast() else { throw failure("`</\(text(name))>` closes no element") }
                guard Self.equal(bytes[last.name], bytes[name]) else {
                    throw failure("`</\(text(name))>` closes `<\(text(last.name))>` of line \(last.line)")
                }
                end(name, bytes)
            } else {
                guard !open.isEmpty || !sawRoot else { throw failure("text outside the root element") }
                offset += 1
                let name = try self.name()
                attributes.removeAll(keepingCapacity: true)
                let empty = try readAttributes(into: &attributes, of: name)
                sawRoot = true
                try start(StartTag(bytes: bytes, nameRange: name, attributes: attributes, line: line))
                if empty { end(name, bytes) } else { open.append((name, line)) }
            }
        }
        if let last = open.last { throw failure("`<\(text(last.name))>` of line \(last.line) is not closed") }
        guard sawRoot else { throw failure("no root element") }
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private func starts(with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { buffer in
            var index = 0
            while index < count {
                if bytes[offset + index] != buffer[index] { return false }
                index += 1
            }
            return true
        }
    }

    /// Text up to the next `<`: outside the root element, only spaces; inside, each `&` a reference.
    private mutating func text(inside: Bool) throws {
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "<") {
            let byte = bytes[offset]
            if byte == 0x0A {
                line += 1
            } else if byte == UInt8(ascii: "&") {
                guard inside else { throw failure("text outside the root element") }
                try reference()
                continue
            } else if !inside, byte != 0x20, byte != 0x09, byte != 0x0D {
                throw failure("text outside the root element")
            }
            offset += 1
        }
    }

    /// `&lt;`, `&#60;`, `&#x3C;`: the five entities XML declares, or a character's number.
    private mutating func reference() throws {
        let start = offset
        offset += 1
        while offset < bytes.count, bytes[offset] != UInt8(ascii: ";"), offset - start < 12 { offset += 1 }
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ";"), Self.isReference(bytes[(start + 1)..<offset]) else {
            let name = offset < bytes.count && bytes[offset] == UInt8(ascii: ";") ? text((start + 1)..<offset) : nil
            offset = start
            if let name, sawDoctype, name.first?.isLetter == true {
                throw failure("`&\(name);` is an entity its DOCTYPE declares, which is not read")
            }
            throw failure("`&` begins no reference (write `&amp;`)")
        }
        offset += 1
    }

    static func isReference(_ body: ArraySlice<UInt8>) -> Bool {
        if let first = body.first, first == UInt8(ascii: "#") {
            // A character XML may hold: a tab, a line break, or one from U+0020 on, but the
            // surrogates and U+FFFE, U+FFFF.
            let hex = body.dropFirst().first == UInt8(ascii: "x")
            guard let value = UInt32(String(decoding: body.dropFirst(hex ? 2 : 1), as: UTF8.self), radix: hex ? 16 : 10) else { return false }
            return value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || (0x10000...0x10FFFF).contains(value)
        }
        return entities.keys.contains { body.elementsEqual($0.utf8) }
    }

    static let entities: [String: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]

    private mutating func skip(past terminator: StaticString, what: String) throws {
        let startLine = line
        while offset < bytes.count {
            if starts(with: terminator) {
                offset += terminator.utf8CodeUnitCount
                return
            }
            if bytes[offset] == 0x0A { line += 1 }
            offset += 1
        }
        line = startLine
        throw failure("\(what) is not closed")
    }

    /// A comment, which may not hold `--` but at its end.
    private mutating func skipComment() throws {
        offset += 4
        try skip(past: "--", what: "a comment")
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ">") else { throw failure("`--` inside a comment") }
        offset += 1
    }

    private mutating func skipDoctype() throws {
        var depth = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if byte == 0x0A { line += 1 }
            if byte == UInt8(ascii: "[") { depth += 1 }
            if byte == UInt8(ascii: "]") { depth -= 1 }
            if byte == UInt8(ascii: ">"), depth <= 0 { return }
        }
        throw failure("the DOCTYPE is not closed")
    }

    private mutating func skipSpace() {
        while offset < bytes.count {
            let byte = bytes[offset]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A else { return }
            if byte == 0x0A { line += 1 }
            offset += 1
        }
    }

    /// A name (of an element or an attribute) at the offset.
    private mutating func name() throws -> Range<Int> {
        let start = offset
        while offset < bytes.count, Self.isNameByte(bytes[offset], first: offset == start) { offset += 1 }
        guard offset > start else {
            let found = offset < bytes.count ? "`\(Character(Unicode.Scalar(bytes[offset])))`" : "the end of the file"
            throw failure("a name should follow `<`, not \(found)")
        }
        return start..<offset
    }

    static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...0xFF: return true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): return !first
        default: return false
        }
    }

    /// The attributes of a start tag, up to its `>` or `/>`.
    /// - Returns: whether the element is empty (`/>`).
    private mutating func readAttributes(into attributes: inout [(name: Range<Int>, value: Range<Int>)], of element: Range<Int>) throws -> Bool {
        while true {
            let hadSpace = offset < bytes.count && [0x20, 0x09, 0x0D, 0x0A].contains(bytes[offset])
            skipSpace()
            guard offset < bytes.count else { throw failure("the tag `<\(text(element))` is not closed") }
            if bytes[offset] == UInt8(ascii: ">") {
                offset += 1
                return false
            }
            if starts(with: "/>") {
                offset += 2
                return true
            }
            guard hadSpace else { throw failure("a space should come before the attribute in `<\(text(element))`") }
            let name = try self.name()
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "=") else { throw failure("the attribute `\(text(name))` has no value") }
            offset += 1
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'") else {
                throw failure("the value of `\(text(name))` should be quoted")
            }
            let quote = bytes[offset]
            offset += 1
            let start = offset
            while offset < bytes.count, bytes[offset] != quote {
                switch bytes[offset] {
                case UInt8(ascii: "<"): throw failure("`<` in the value of `\(text(name))`")
                case UInt8(ascii: "&"): try reference()
                case 0x0A:
                    line += 1
                    offset += 1
                default: offset += 1
                }
            }
            guard offset < bytes.count else { throw failure("the value of `\(text(name))` is not closed") }
            if attributes.contains(where: { Self.equal(bytes[$0.name], bytes[name]) }) { throw failure("the attribute `\(text(name))` is given twice") }
            attributes.append((name, start..<offset))
            offset += 1
        }
    }

    /// Whether two runs of bytes are the same, compared as memory (thousands of attributes are
    /// looked up by name in every storyboard).
    static func equal<Other: Collection<UInt8>>(_ slice: ArraySlice<UInt8>, _ other: Other) -> Bool {
        guard slice.count == other.count else { return false }
        // (Empty runs may have no memory to compare.)
        guard !slice.isEmpty else { return true }
        return slice.withUnsafeBytes { first in
            other.withContiguousStorageIfAvailable { second in memcmp(first.baseAddress!, second.baseAddress!, first.count) == 0 }
                ?? first.elementsEqual(other)
        }
    }

    /// An attribute's value with its references decoded (and, as XML reads it, a tab or a line
    /// break as a space).
    static func decoded(_ value: ArraySlice<UInt8>) -> String {
        guard value.contains(where: { $0 == UInt8(ascii: "&") || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return String(decoding: value, as: UTF8.self) }
        var result: [UInt8] = []
        var index = value.startIndex
        while index < value.endIndex {
            let byte = value[index]
            if byte == UInt8(ascii: "&"), let end = value[index...].firstIndex(of: UInt8(ascii: ";")) {
                let body = value[(index + 1)..<end]
                if body.first == UInt8(ascii: "#") {
                    let hex = body.dropFirst().first == UInt8(ascii: "x")
                    let digits = String(decoding: body.dropFirst(hex ? 2 : 1), as: UTF8.self)
                    if let number = UInt32(digits, radix: hex ? 16 : 10), let scalar = Unicode.Scalar(number) {
                        result.append(contentsOf: Array(String(Character(scalar)).utf8))
                    }
                } else if let text = entities[String(decoding: body, as: UTF8.self)] {
                    result.append(contentsOf: Array(text.utf8))
                }
                index = end + 1
                continue
            }
            // (A line break written as CR LF is one space.)
            if byte == 0x0D, index + 1 < value.endIndex, value[index + 1] == 0x0A {
                index += 1
                continue
            }
            result.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte)
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The line of the first byte that is not UTF-8.
    static func lineOfInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var line = 1, start = 0
        while let newline = bytes[start...].firstIndex(of: 0x0A) {
            if String(validating: bytes[start..<newline], as: UTF8.self) == nil { return line }
            line += 1
            start = newline + 1
        }
        return line
    }
}
