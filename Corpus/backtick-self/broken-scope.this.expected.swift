// A syntax error in the scope of a rebinding: renaming `self` there could change what the damaged
// code means once it is fixed, so that rebinding is left (with a note); the others are rewritten.
final class Gauge {
    var count = 1
    func run(_ body: @escaping () -> Void) { body() }

    func start() {
        run { [weak self] in
            guard let this = self else { return }
            print(this.count)
        }
        run { [weak self] in
            guard let `self` = self else { return }
            print(count +* ))
            self.count = ((
        }
    }

    func later() {
        run { [weak self] in
            guard let this = self else { return }
            print(this.count)
        }
    }
}
