import UIKit

// Written on Windows: CRLF line endings. A fluent chain breaks lines before each dot, so the
// member type `Theme.Color` starts a line of its own; the global `Color` is being replaced by
// `BrandColor`, `Theme.Color` is not.
enum Theme {
    struct Color {
        var hex: String
    }

    static let accent = Theme
        .Color(hex: "#FF6A00")
}

final class BannerView: UIView {
    private let tint: Theme
        .Color = Theme
        .Color(hex: "#222222")
    private let fallback: BrandColor = BrandColor(red: 1, green: 1, blue: 1)

    func apply(_ color: Theme .
        Color, over base: BrandColor) -> BrandColor {
        base.blended(with: BrandColor(hex: color.hex))
    }
}
