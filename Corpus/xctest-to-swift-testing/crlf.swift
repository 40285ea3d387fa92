// A file written on Windows: every line ends with CRLF.
import XCTest

final class WindowsLineEndingTests: XCTestCase {
    func testLines() {
        let text = "one\r\ntwo\r\nthree"
        let parts = text.split(separator: "\r\n")
        XCTAssertEqual(parts.count, 3)
        XCTAssertEqual(
            parts.last,
            "three",
            "the last line has no line break"
        )
    }

    func testParse() {
        XCTAssertThrowsError(try parseLine("")) { error in
            XCTAssertEqual(error as? LineError, .empty)
            XCTAssertFalse(
                "\(error)".isEmpty
            )
        }
        XCTAssertNoThrow(try parseLine("😀"))
    }
}

enum LineError: Error {
    case empty
}

func parseLine(_ line: String) throws -> String {
    if line.isEmpty { throw LineError.empty }
    return line
}
