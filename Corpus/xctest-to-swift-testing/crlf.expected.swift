// A file written on Windows: every line ends with CRLF.
import Foundation
import Testing

struct WindowsLineEndingTests {
    @Test func lines() {
        let text = "one\r\ntwo\r\nthree"
        let parts = text.split(separator: "\r\n")
        #expect(parts.count == 3)
        #expect(parts.last == "three", "the last line has no line break")
    }

    @Test func parse() {
        if let error = #expect(throws: (any Error).self, performing: { try parseLine("") }) {
            #expect(error as? LineError == .empty)
            #expect(!"\(error)".isEmpty)
        }
        #expect(throws: Never.self) { try parseLine("😀") }
    }
}

enum LineError: Error {
    case empty
}

func parseLine(_ line: String) throws -> String {
    if line.isEmpty { throw LineError.empty }
    return line
}
