// A local declaration inside an `#if` branch: uses in that branch see it, uses in another branch
// of the same `#if` do not, and what a use after the `#if` means depends on the build
// configuration, so that rebinding is left for a person (with a note).
final class Meter {
    var count = 1
    var label = "meter"
    func run(_ body: @escaping () -> Void) { body() }

    func measure() {
        run { [weak self] in
            guard let `self` = self else { return }
            #if DEBUG
            let count = 5
            #endif
            print(count)
        }
    }

    func report() {
        run { [weak self] in
            guard let `self` = self else { return }
            if count > 0 {
            #if DEBUG
                let label = "debug"
                print(label, count)
            #elseif TESTING
                print(label)
            #else
                func label() -> String { "release" }
                print(label())
            #endif
            }
        }
    }

    func helper() {
        run { [weak self] in
            guard let `self` = self else { return }
            print(describe())
            #if DEBUG
            func describe() -> String { "debug" }
            #endif
        }
    }

    func describe() -> String { "meter \(count)" }
}
