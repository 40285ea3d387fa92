import Foundation
import Testing

// Assertions whose operands throw, in tests that do not: XCTest records what they throw as a
// failure, so the tests must throw once they use `#expect(try …)`.

struct Settings: Codable, Equatable {
    var volume: Int
    var name: String
}

struct ThrowingOperandTests {
    let json = Data(#"{"volume": 7, "name": "Living room 🔊"}"#.utf8)

    @Test func decodes() throws {
        #expect((try JSONDecoder().decode(Settings.self, from: json).volume) == 7)
        #expect((try JSONDecoder().decode(Settings.self, from: json)) == Settings(volume: 7, name: "Living room 🔊"))
    }

    @Test func roundTrip() throws {
        let settings = Settings(volume: 3, name: "Kitchen")
        #expect((try JSONDecoder().decode(Settings.self, from: JSONEncoder().encode(settings))) == settings)
        #expect(try JSONSerialization.jsonObject(with: json) is [String: Any])
    }

    @Test func alreadyThrows() throws {
        #expect((try JSONSerialization.jsonObject(with: json) as? [String: Any]) != nil)
        #expect((try settings(from: json)) == Settings(volume: 7, name: "Living room 🔊"))
    }

    @Test func operandThrowsInAHandler() {
        if let error = #expect(throws: (any Error).self, performing: { try settings(from: Data("[]".utf8)) }) {
            #expect(error is DecodingError)
        }
    }

    func settings(from data: Data) throws -> Settings {
        try JSONDecoder().decode(Settings.self, from: data)
    }
}
