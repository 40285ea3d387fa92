import Foundation
import Testing

// Operands that need parentheses once they sit beside an operator, and arguments over several
// lines.

struct Forecast {
    var rain: Bool
    var wind: Int
    var summary: String?
    var tags: [String] = []

    var isStormy: Bool { rain && wind > 60 }
}

struct OperandTests {
    let sunny = Forecast(rain: false, wind: 5, summary: "Sunny ☀️")
    let stormy = Forecast(rain: true, wind: 90, summary: nil, tags: ["⚡️", "🌧"])

    @Test func logicalOperators() {
        #expect(!(sunny.rain || sunny.wind > 50))
        #expect(!(sunny.isStormy && stormy.isStormy), "only one storm")
        #expect(stormy.rain && stormy.wind > 60)
        #expect(!(sunny.rain == stormy.rain))
    }

    @Test func ternaries() {
        let windy = stormy.wind > 60
        #expect((windy ? "windy" : "calm") == "windy")
        #expect("calm" == (sunny.wind > 60 ? "windy" : "calm"))
        #expect(windy ? stormy.rain : false)
        #expect(!(sunny.rain ? true : sunny.wind > 10))
    }

    @Test func casts() {
        let values: [Any] = [42, "forty-two", 4.2]
        #expect(values[0] as? Int == 42)
        #expect(values[1] as? Int == nil)
        #expect(values[2] as? Double != nil, "a Double")
        #expect(!(values[1] is Int))
        #expect(values[1] is String)
        #expect((values[1] as? String)?.count == 9)
    }

    @Test func comparisonsAsOperands() {
        #expect((stormy.wind > 60) == true)
        #expect((sunny.wind >= 10) != true, "a light breeze")
        #expect(sunny.summary ?? "none" == "Sunny ☀️")
        #expect(stormy.summary ?? "none" == "none")
        #expect(stormy.wind - sunny.wind > 80)
        #expect(sunny.wind * 2 < stormy.wind / 2)
    }

    @Test func multiLineArguments() {
        #expect(stormy.tags.map(\.unicodeScalars.count) == [2, 1], "the lightning has a variation selector")
        #expect(
            stormy.isStormy, """
            a storm brings rain \
            and wind
            """
        )
        #expect(sunny.summary != stormy.summary, "one of them has no summary")
        #expect(stormy.tags.allSatisfy { tag in
            tag.unicodeScalars.contains { scalar in
                scalar.properties.isEmoji
            }
        })
    }

    @Test func nestedClosures() {
        let days = [sunny, stormy, sunny]
        let windiest = days
            .sorted { left, right in
                left.wind > right.wind
            }
            .first
            .map { forecast in forecast.tags.map { $0.count } }
        #expect(windiest == [1, 1])
        #expect(days.contains { day in
            day.tags.contains { $0 == "⚡️" }
        })
    }

    #if os(Linux) || os(macOS)
    @Test func onDesktopPlatforms() {
        #expect(sunny.tags == [])
    }
    #else
    @Test func elsewhere() {
        #expect(sunny.tags.count == 0)
    }
    #endif
}
