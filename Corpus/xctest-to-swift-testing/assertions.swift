// Every row of Apple's table, from XCTest to Swift Testing
// (https://developer.apple.com/documentation/testing/migratingfromxctest).
import XCTest

/// A tiny parser the tests below poke at.
enum Temperature: Equatable {
    case celsius(Int)

    enum ParseError: Error, Equatable {
        case empty
        case notANumber(String)
    }

    static func parse(_ text: String) throws -> Temperature {
        guard !text.isEmpty else { throw ParseError.empty }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ParseError.notANumber(text)
        }
        return .celsius(value)
    }
}

final class Thermometer {
    var reading: Temperature?
}

final class AssertionTableTests: XCTestCase {
    func testTruth() {
        let readings = [12, 18, 21]
        XCTAssert(readings.count == 3)
        XCTAssert(!readings.isEmpty, "we took some readings")
        XCTAssertTrue(readings.allSatisfy { $0 > 0 })
        XCTAssertFalse(readings.contains(-40), "no polar vortex today")
    }

    func testNilAndNotNil() {
        let thermometer = Thermometer()
        XCTAssertNil(thermometer.reading)
        thermometer.reading = .celsius(20)
        XCTAssertNotNil(thermometer.reading, "a reading was stored")
    }

    func testEquality() throws {
        let parsed = try Temperature.parse("21")
        let trimmed = try Temperature.parse(" 7 ")
        XCTAssertEqual(parsed, .celsius(21))
        XCTAssertEqual(trimmed, .celsius(7), "spaces are trimmed")
        XCTAssertNotEqual(parsed, trimmed)
        XCTAssertEqual("🌡️ 21°C".count, 6, "an emoji is one character 🌡️")
    }

    func testIdentity() {
        let first = Thermometer()
        let alias = first
        let second = Thermometer()
        XCTAssertIdentical(first, alias)
        XCTAssertNotIdentical(first, second, "two thermometers, two objects")
    }

    func testOrdering() {
        let low = 3, high = 30
        XCTAssertGreaterThan(high, low)
        XCTAssertGreaterThanOrEqual(high, 30, "the boundary counts")
        XCTAssertLessThan(low, high)
        XCTAssertLessThanOrEqual(low, 3)
    }

    func testErrors() {
        XCTAssertThrowsError(try Temperature.parse(""))
        XCTAssertThrowsError(try Temperature.parse("warm"), "words are not numbers") { error in
            XCTAssertEqual(error as? Temperature.ParseError, .notANumber("warm"))
        }
        var failures = 0
        XCTAssertThrowsError(try Temperature.parse(""), "an empty reading") { _ in
            failures += 1
        }
        XCTAssertEqual(failures, 1)
        XCTAssertNoThrow(try Temperature.parse("-5"))
        XCTAssertNoThrow(try Temperature.parse("0"), "zero is a number")
    }

    func testUnwrap() throws {
        let thermometer = Thermometer()
        thermometer.reading = try Temperature.parse("15")
        let reading = try XCTUnwrap(thermometer.reading)
        XCTAssertEqual(reading, .celsius(15))
        let first = try XCTUnwrap([1, 2, 3].first, "the list is not empty")
        XCTAssertEqual(first, 1)
    }

    func testFailInABranchThatDoesNotRun() {
        let reading = Temperature.celsius(21)
        switch reading {
        case .celsius(let degrees) where degrees > 100:
            XCTFail("water boils at 100°C, not \(degrees)")
        case .celsius:
            break
        }
        if reading != .celsius(21) {
            XCTFail()
        }
    }
}
