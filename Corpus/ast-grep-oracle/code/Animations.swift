import UIKit

extension UIView {
    func fadeIn(duration: TimeInterval = 0.25, completion: (() -> Void)? = nil) {
        alpha = 0
        UIView.animate(withDuration: duration) {
            self.alpha = 1
        }
        UIView.animate(withDuration: duration, animations: {
            self.transform = .identity
        }) { _ in
            completion?()
        }
    }

    func fadeOut(completion: @escaping () -> Void) {
        UIView.animate(withDuration: 0.2) {
            self.alpha = 0
        } completion: { _ in
            completion()
        }
    }

    func shake() {
        UIView.animate(withDuration: 0.1, animations: { self.center.x += 8 })
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) {
            UIView.animate(withDuration: 0.1) { self.center.x -= 8 }
        }
    }

    func pulse(times: Int) {
        guard times > 0 else { return }
        UIView.animate(withDuration: 0.2, delay: 0, options: [.autoreverse]) {
            self.transform = CGAffineTransform(scaleX: 1.1, y: 1.1)
        } completion: { _ in
            self.transform = .identity
            DispatchQueue.main.async { self.pulse(times: times - 1) }
        }
    }
}

final class ToastPresenter {
    private var queue: Array<String> = []
    private var timers: [String: Timer] = [:]

    func show(_ message: String, in view: UIView) {
        queue.append(message)
        let label = UILabel()
        label.text = "\(message)"
        view.addSubview(label)
        label.fadeIn {
            DispatchQueue.main.async {
                // Drop the toast once it was read.
                label.removeFromSuperview()
                DispatchQueue.main.async { self.showNext(in: view) }
            }
        }
        timers[message] = Timer.scheduledTimer(withTimeInterval: 2, repeats: false) { [weak self] _ in
            self?.queue.removeAll { $0 == message }
        }
    }

    func showNext(in view: UIView) {
        guard let next = queue.first else { return }
        show(next, in: view)
    }
}
