import Foundation
import XCTest

// Assertions whose operands throw, in tests that do not: XCTest records what they throw as a
// failure, so the tests must throw once they use `#expect(try …)`.

struct Settings: Codable, Equatable {
    var volume: Int
    var name: String
}

final class ThrowingOperandTests: XCTestCase {
    let json = Data(#"{"volume": 7, "name": "Living room 🔊"}"#.utf8)

    func testDecodes() {
        XCTAssertEqual(try JSONDecoder().decode(Settings.self, from: json).volume, 7)
        XCTAssertEqual(
            try JSONDecoder().decode(Settings.self, from: json),
            Settings(volume: 7, name: "Living room 🔊")
        )
    }

    func testRoundTrip() {
        let settings = Settings(volume: 3, name: "Kitchen")
        XCTAssertEqual(try JSONDecoder().decode(Settings.self, from: JSONEncoder().encode(settings)), settings)
        XCTAssertTrue(try JSONSerialization.jsonObject(with: json) is [String: Any])
    }

    func testAlreadyThrows() throws {
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        XCTAssertEqual(try settings(from: json), Settings(volume: 7, name: "Living room 🔊"))
    }

    func testOperandThrowsInAHandler() {
        XCTAssertThrowsError(try settings(from: Data("[]".utf8))) { error in
            XCTAssertTrue(error is DecodingError)
        }
    }

    func settings(from data: Data) throws -> Settings {
        try JSONDecoder().decode(Settings.self, from: data)
    }
}
