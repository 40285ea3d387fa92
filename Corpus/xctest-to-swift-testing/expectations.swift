import XCTest

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

final class EventBusTests: XCTestCase {
    func testEveryEventIsDelivered() {
        let bus = EventBus()
        let delivered = expectation(description: "each event reaches the subscriber")
        delivered.expectedFulfillmentCount = 3
        var received: [String] = []
        bus.subscribe { received.append($0) }
        for event in ["launch", "login", "logout"] {
            bus.publish(event)
        }
        for _ in received { delivered.fulfill() }
        wait(for: [delivered], timeout: 1)
        XCTAssertEqual(received, ["launch", "login", "logout"])
    }

    func testNoEventNoDelivery() throws {
        let bus = EventBus()
        let nothing = XCTestExpectation(description: "nothing is delivered")
        nothing.isInverted = true
        var count = 0
        bus.subscribe { _ in count += 1 }
        if count > 0 {
            nothing.fulfill()
        }
        wait(for: [nothing], timeout: 0.1)
        let total = try XCTUnwrap(Optional(count), "a count")
        XCTAssertEqual(total, 0)
    }

    /// Two expectations, one wait: nested confirmations.
    func testTwoSubscribers() async {
        let bus = EventBus()
        let first = expectation(description: "first subscriber")
        let second = XCTestExpectation(description: "second subscriber, at least once")
        bus.subscribe { _ in }
        bus.publish("ping") // 🏓
        first.fulfill()
        for _ in 0..<2 {
            second.fulfill()
        }
        await fulfillment(of: [first, second], timeout: 1)
    }

    func testWaitForEverything() {
        let bus = EventBus()
        let published = self.expectation(description: "published")
        published.fulfill()
        bus.publish("""
            multi-line
              event

            """)
        self.waitForExpectations(timeout: 1)
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
