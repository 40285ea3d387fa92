/// An old-style (OpenStep) property list, as Xcode writes `project.pbxproj`: dictionaries
/// (`{ key = value; }`), arrays (`( a, b, )`), strings (quoted, or bare: `PBXGroup`, `<group>` is
/// quoted), and `<hex>` data, with `/* … */` and `//` comments anywhere between them.
///
/// Read by hand because Foundation's reader is most of what reading a project costs (a 500 KB
/// project: ~20 ms, and its `[String: Any]` then costs as much again to take apart); this one
/// gives Swift values at once, and says where a damaged file goes wrong.
public enum PropertyList: Sendable, Equatable {
    case string(String)
    case array([PropertyList])
    case dictionary([String: PropertyList])
    case data([UInt8])

    /// Why a file is no property list, and where.
    public struct ReadError: Error, CustomStringConvertible, Sendable, Equatable {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// Reads a whole file's bytes (UTF-8): one value, and nothing after it but comments.
    public init(bytes: [UInt8]) throws {
        var reader = Reader(bytes: bytes)
        reader.skipSpaceAndComments()
        guard !reader.atEnd else { throw reader.error("no value: the file holds nothing but comments") }
        self = try reader.value()
        reader.skipSpaceAndComments()
        guard reader.atEnd else { throw reader.error("more text after the value") }
    }

    public var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    public var array: [PropertyList]? {
        if case let .array(value) = self { return value }
        return nil
    }

    public var dictionary: [String: PropertyList]? {
        if case let .dictionary(value) = self { return value }
        return nil
    }

    /// An array of strings (the ids a pbxproj lists); nil for anything else.
    public var strings: [String]? {
        array?.compactMap(\.string)
    }

    /// A dictionary's value for a key; nil for a missing key, or a value that is no dictionary.
    public subscript(key: String) -> PropertyList? {
        dictionary?[key]
    }
}

private struct Reader {
    let bytes: [UInt8]
    var offset = 0
    /// How many dictionaries and arrays are open: a value is read by recursion, so a file that
    /// nests deeper than any project does is refused, not read off the end of the stack.
    var depth = 0
    static let maximumDepth = 512

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    var atEnd: Bool { offset >= bytes.count }

    func error(_ reason: String) -> PropertyList.ReadError {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == 0x0A { line += 1 }
        return PropertyList.ReadError(line: line, reason: reason)
    }

    mutating func skipSpaceAndComments() {
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                offset += 1
            } else if byte == 0x2F, offset + 1 < bytes.count, bytes[offset + 1] == 0x2A {
                // `/* … */` (an unclosed one runs to the end).
                offset += 2
                while offset < bytes.count, !(bytes[offset] == 0x2A && offset + 1 < bytes.count && bytes[offset + 1] == 0x2F) { offset += 1 }
                offset = min(offset + 2, bytes.count)
            } else if byte == 0x2F, offset + 1 < bytes.count, bytes[offset + 1] == 0x2F {
                while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
            } else {
                return
            }
        }
    }

    mutating func value() throws -> PropertyList {
        skipSpaceAndComments()
        guard offset < bytes.count else { throw error("the file ends where a value should be") }
        let opening = bytes[offset]
        if opening == UInt8(ascii: "{") || opening == UInt8(ascii: "(") {
            guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
            depth += 1
        }
        defer { if opening == UInt8(ascii: "{") || opening == UInt8(ascii: "(") { depth -= 1 } }
        switch opening {
        case UInt8(ascii: "{"):
            offset += 1
            // (Room for a project object's keys at once: growing from empty costs more than reading them.)
            var dictionary = [String: PropertyList](minimumCapacity: 8)
            while true {
                skipSpaceAndComments()
                guard offset < bytes.count else { throw error("the file ends inside a dictionary (a `}` is missing)") }
                if bytes[offset] == UInt8(ascii: "}") { offset += 1; return .dictionary(dictionary) }
                guard let key = try string() else { throw error("a dictionary key should be a string, not `\(Character(Unicode.Scalar(bytes[offset])))`") }
                try expect(UInt8(ascii: "="), "`=` after the key `\(key)`")
                dictionary[key] = try value()
                try expect(UInt8(ascii: ";"), "`;` after the value of `\(key)`")
            }
        case UInt8(ascii: "("):
            offset += 1
            var array: [PropertyList] = []
            while true {
                skipSpaceAndComments()
                guard offset < bytes.count else { throw error("the file ends inside an array (a `)` is missing)") }
                if bytes[offset] == UInt8(ascii: ")") { offset += 1; return .array(array) }
                array.append(try value())
                skipSpaceAndComments()
                guard offset < bytes.count else { throw error("the file ends inside an array (a `)` is missing)") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1 } else if bytes[offset] != UInt8(ascii: ")") {
                    throw error("`,` or `)` should follow an array's value")
                }
            }
        case UInt8(ascii: "<"):
            return .data(try data())
        default:
            guard let text = try string() else { throw error("`\(Character(Unicode.Scalar(bytes[offset])))` begins no value") }
            return .string(text)
        }
    }

    mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws {
        skipSpaceAndComments()
        guard offset < bytes.count, bytes[offset] == byte else { throw error("\(what()) is missing") }
        offset += 1
    }

    /// A quoted or bare string at the offset; nil when none begins there.
    mutating func string() throws -> String? {
        if bytes[offset] == UInt8(ascii: "\"") || bytes[offset] == UInt8(ascii: "'") { return try quoted() }
        let start = offset
        while offset < bytes.count, Self.isBare(bytes[offset]) { offset += 1 }
        return offset > start ? String(decoding: bytes[start..<offset], as: UTF8.self) : nil
    }

    /// What a bare string holds: letters, digits and `_$+/:.-`.
    static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    mutating func quoted() throws -> String {
        let quote = bytes[offset]
        offset += 1
        let start = offset
        // Most strings have no escape: taken as they are.
        while offset < bytes.count, bytes[offset] != quote, bytes[offset] != UInt8(ascii: "\\") { offset += 1 }
        guard offset < bytes.count else { throw error("a string is not closed (a `\"` is missing)") }
        if bytes[offset] == quote {
            defer { offset += 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }
        var text = Array(bytes[start..<offset])
        while offset < bytes.count, bytes[offset] != quote {
            guard bytes[offset] == UInt8(ascii: "\\") else {
                text.append(bytes[offset])
                offset += 1
                continue
            }
            offset += 1
            guard offset < bytes.count else { break }
            let escaped = bytes[offset]
            offset += 1
            switch escaped {
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "a"): text.append(0x07)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "v"): text.append(0x0B)
            case UInt8(ascii: "U"), UInt8(ascii: "u"):
                // `\U00e9`: up to four hex digits, a UTF-16 unit; `\Ud83d\Ude00`, a pair of them.
                var value = hexUnit()
                if (0xD800...0xDBFF).contains(value), offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                   bytes[offset + 1] | 0x20 == UInt8(ascii: "u") {
                    let mark = offset
                    offset += 2
                    let low = hexUnit()
                    if (0xDC00...0xDFFF).contains(low) {
                        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        offset = mark
                    }
                }
                text.append(contentsOf: Array(String(Unicode.Scalar(value).map(Character.init) ?? "\u{FFFD}").utf8))
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                // `\101`: up to three octal digits.
                var value = UInt32(escaped - UInt8(ascii: "0")), digits = 1
                while digits < 3, offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[offset]) {
                    value = value * 8 + UInt32(bytes[offset] - UInt8(ascii: "0"))
                    offset += 1
                    digits += 1
                }
                text.append(UInt8(truncatingIfNeeded: value))
            default:
                text.append(escaped)
            }
        }
        guard offset < bytes.count else { throw error("a string is not closed (a `\"` is missing)") }
        offset += 1
        return String(decoding: text, as: UTF8.self)
    }

    /// Up to four hex digits at the offset, as a number.
    mutating func hexUnit() -> UInt32 {
        var value: UInt32 = 0, digits = 0
        while digits < 4, offset < bytes.count, let digit = Self.hex(bytes[offset]) {
            value = value * 16 + UInt32(digit)
            offset += 1
            digits += 1
        }
        return value
    }

    mutating func data() throws -> [UInt8] {
        offset += 1
        var result: [UInt8] = []
        var high: UInt8?
        while offset < bytes.count, bytes[offset] != UInt8(ascii: ">") {
            let byte = bytes[offset]
            offset += 1
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            guard let digit = Self.hex(byte) else { throw error("`<…>` data holds `\(Character(Unicode.Scalar(byte)))`, no hex digit") }
            if let first = high {
                result.append(first << 4 | digit)
                high = nil
            } else {
                high = digit
            }
        }
        guard offset < bytes.count else { throw error("`<…>` data is not closed (a `>` is missing)") }
        guard high == nil else { throw error("`<…>` data has an odd number of hex digits") }
        offset += 1
        return result
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
