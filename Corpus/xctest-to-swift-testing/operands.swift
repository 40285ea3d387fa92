import Foundation
import XCTest

// Operands that need parentheses once they sit beside an operator, and arguments over several
// lines.

struct Forecast {
    var rain: Bool
    var wind: Int
    var summary: String?
    var tags: [String] = []

    var isStormy: Bool { rain && wind > 60 }
}

final class OperandTests: XCTestCase {
    let sunny = Forecast(rain: false, wind: 5, summary: "Sunny ☀️")
    let stormy = Forecast(rain: true, wind: 90, summary: nil, tags: ["⚡️", "🌧"])

    func testLogicalOperators() {
        XCTAssertFalse(sunny.rain || sunny.wind > 50)
        XCTAssertFalse(sunny.isStormy && stormy.isStormy, "only one storm")
        XCTAssertTrue(stormy.rain && stormy.wind > 60)
        XCTAssertFalse(sunny.rain == stormy.rain)
    }

    func testTernaries() {
        let windy = stormy.wind > 60
        XCTAssertEqual(windy ? "windy" : "calm", "windy")
        XCTAssertEqual("calm", sunny.wind > 60 ? "windy" : "calm")
        XCTAssertTrue(windy ? stormy.rain : false)
        XCTAssertFalse(sunny.rain ? true : sunny.wind > 10)
    }

    func testCasts() {
        let values: [Any] = [42, "forty-two", 4.2]
        XCTAssertEqual(values[0] as? Int, 42)
        XCTAssertNil(values[1] as? Int)
        XCTAssertNotNil(values[2] as? Double, "a Double")
        XCTAssertFalse(values[1] is Int)
        XCTAssertTrue(values[1] is String)
        XCTAssertEqual((values[1] as? String)?.count, 9)
    }

    func testComparisonsAsOperands() {
        XCTAssertEqual(stormy.wind > 60, true)
        XCTAssertNotEqual(sunny.wind >= 10, true, "a light breeze")
        XCTAssertEqual(sunny.summary ?? "none", "Sunny ☀️")
        XCTAssertEqual(stormy.summary ?? "none", "none")
        XCTAssertGreaterThan(stormy.wind - sunny.wind, 80)
        XCTAssertLessThan(sunny.wind * 2, stormy.wind / 2)
    }

    func testMultiLineArguments() {
        XCTAssertEqual(
            stormy.tags.map(\.unicodeScalars.count),
            [2, 1],
            "the lightning has a variation selector"
        )
        XCTAssertTrue(
            stormy.isStormy,
            """
            a storm brings rain \
            and wind
            """
        )
        XCTAssertNotEqual(sunny.summary,
                          stormy.summary,
                          "one of them has no summary")
        XCTAssertTrue(stormy.tags.allSatisfy { tag in
            tag.unicodeScalars.contains { scalar in
                scalar.properties.isEmoji
            }
        })
    }

    func testNestedClosures() {
        let days = [sunny, stormy, sunny]
        let windiest = days
            .sorted { left, right in
                left.wind > right.wind
            }
            .first
            .map { forecast in forecast.tags.map { $0.count } }
        XCTAssertEqual(windiest, [1, 1])
        XCTAssertTrue(days.contains { day in
            day.tags.contains { $0 == "⚡️" }
        })
    }

    #if os(Linux) || os(macOS)
    func testOnDesktopPlatforms() {
        XCTAssertEqual(sunny.tags, [])
    }
    #else
    func testElsewhere() {
        XCTAssertEqual(sunny.tags.count, 0)
    }
    #endif
}
