import XCTest
import Testing

// Expectations: those a test fulfils in its own statements become `confirmation`s; one fulfilled
// in a callback stays XCTest (it may be fulfilled after the test reaches its wait).

/// A tiny event bus that delivers synchronously, or later on a queue.
final class EventBus {
    private var handlers: [(String) -> Void] = []

    func subscribe(_ handler: @escaping (String) -> Void) { handlers.append(handler) }

    func publish(_ event: String) { handlers.forEach { $0(event) } }

    func publishLater(_ event: String, on queue: DispatchQueue) {
        queue.async { self.publish(event) }
    }
}

struct EventBusTests {
    @Test func everyEventIsDelivered() async {
        let bus = EventBus()
        var received: [String] = []
        bus.subscribe { received.append($0) }
        for event in ["launch", "login", "logout"] {
            bus.publish(event)
        }
        await confirmation("each event reaches the subscriber", expectedCount: 3) { delivered in
            for _ in received { delivered() }
        }
        #expect(received == ["launch", "login", "logout"])
    }

    @Test func noEventNoDelivery() async throws {
        let bus = EventBus()
        var count = 0
        bus.subscribe { _ in count += 1 }
        await confirmation("nothing is delivered", expectedCount: 0) { nothing in
            if count > 0 {
                nothing()
            }
        }
        let total = try #require(Optional(count), "a count")
        #expect(total == 0)
    }

    /// Two expectations, one wait: nested confirmations.
    @Test func twoSubscribers() async {
        let bus = EventBus()
        bus.subscribe { _ in }
        bus.publish("ping") // 🏓
        await confirmation("first subscriber") { first in
            await confirmation("second subscriber, at least once", expectedCount: 1...) { second in
                first()
                for _ in 0..<2 {
                    second()
                }
            }
        }
    }

    @Test func waitForEverything() async {
        let bus = EventBus()
        await confirmation("published") { published in
            published()
            bus.publish("""
                multi-line
                  event

                """)
        }
    }
}

/// Stays XCTest: the event arrives on another queue, after `publishLater` returns.
final class EventBusQueueTests: XCTestCase {
    func testDeliveryOnAQueue() {
        let bus = EventBus()
        let delivered = expectation(description: "delivered on the queue")
        bus.subscribe { _ in delivered.fulfill() }
        bus.publishLater("sync", on: DispatchQueue(label: "bus"))
        wait(for: [delivered], timeout: 5)
    }
}
