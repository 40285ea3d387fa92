// Every row of Apple's table, from XCTest to Swift Testing
// (https://developer.apple.com/documentation/testing/migratingfromxctest).
import Foundation
import Testing

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

struct AssertionTableTests {
    @Test func truth() {
        let readings = [12, 18, 21]
        #expect(readings.count == 3)
        #expect(!readings.isEmpty, "we took some readings")
        #expect(readings.allSatisfy { $0 > 0 })
        #expect(!readings.contains(-40), "no polar vortex today")
    }

    @Test func nilAndNotNil() {
        let thermometer = Thermometer()
        #expect(thermometer.reading == nil)
        thermometer.reading = .celsius(20)
        #expect(thermometer.reading != nil, "a reading was stored")
    }

    @Test func equality() throws {
        let parsed = try Temperature.parse("21")
        let trimmed = try Temperature.parse(" 7 ")
        #expect(parsed == .celsius(21))
        #expect(trimmed == .celsius(7), "spaces are trimmed")
        #expect(parsed != trimmed)
        #expect("🌡️ 21°C".count == 6, "an emoji is one character 🌡️")
    }

    @Test func identity() {
        let first = Thermometer()
        let alias = first
        let second = Thermometer()
        #expect(first === alias)
        #expect(first !== second, "two thermometers, two objects")
    }

    @Test func ordering() {
        let low = 3, high = 30
        #expect(high > low)
        #expect(high >= 30, "the boundary counts")
        #expect(low < high)
        #expect(low <= 3)
    }

    @Test func errors() {
        #expect(throws: (any Error).self) { try Temperature.parse("") }
        if let error = #expect(throws: (any Error).self, "words are not numbers", performing: { try Temperature.parse("warm") }) {
            #expect(error as? Temperature.ParseError == .notANumber("warm"))
        }
        var failures = 0
        if #expect(throws: (any Error).self, "an empty reading", performing: { try Temperature.parse("") }) != nil {
            failures += 1
        }
        #expect(failures == 1)
        #expect(throws: Never.self) { try Temperature.parse("-5") }
        #expect(throws: Never.self, "zero is a number") { try Temperature.parse("0") }
    }

    @Test func unwrap() throws {
        let thermometer = Thermometer()
        thermometer.reading = try Temperature.parse("15")
        let reading = try #require(thermometer.reading)
        #expect(reading == .celsius(15))
        let first = try #require([1, 2, 3].first, "the list is not empty")
        #expect(first == 1)
    }

    @Test func failInABranchThatDoesNotRun() {
        let reading = Temperature.celsius(21)
        switch reading {
        case .celsius(let degrees) where degrees > 100:
            Issue.record("water boils at 100°C, not \(degrees)")
        case .celsius:
            break
        }
        if reading != .celsius(21) {
            Issue.record()
        }
    }
}
