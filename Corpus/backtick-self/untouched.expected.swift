import Foundation

// Nothing here is a backtick self rebinding: the file must come out byte for byte the same.
final class Lookalikes {
    let `default` = 1
    let `self`: Int = 2

    func `self`(_ x: Int) -> Int { x }

    func run() {
        work { [weak self] in
            guard let strongSelf = self else { return }
            guard let self = self else { return }
            guard let _ = self else { return }
            let text = "guard let `self` = self else { return }"
            /* if let `self` = self { } */
            print(strongSelf, self, text, Self.self, [1].map(\.self))
        }
        work { [weak self] in
            guard let self else { return }
            print(self)
        }
    }

    func work(_ body: @escaping () -> Void) { body() }
}
