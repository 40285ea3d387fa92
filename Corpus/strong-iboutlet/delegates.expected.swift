import UIKit

/// A rating widget designed in Interface Builder: its delegate and data source are connected to
/// the view controller that owns the widget, so those outlets stay weak (a strong one would make a
/// retain cycle) and are reported with a note; the views inside it become strong.
final class StarRatingView: UIView {
    @IBOutlet weak var delegate: StarRatingViewDelegate!
    @IBOutlet weak var dataSource: StarRatingDataSource!
    @IBOutlet private weak var tableDelegate: AnyObject!         // named like one: stays
    @IBOutlet weak var owner: StarRatingViewDelegate!            // typed like one: stays
    @IBOutlet weak var pickerSource: (UIPickerViewDelegate & UIPickerViewDataSource)!
    @IBOutlet unowned var listDatasource: ListProvider!          // unowned stays unowned
    @IBOutlet var starsStack: UIStackView!                  // a view: becomes strong
    @IBOutlet var delegateHintLabel: UILabel!               // "delegate" is not at the end
    @IBOutlet var sourceLabel: UILabel!
    @IBOutlet weak var layoutDelegate: UICollectionViewDelegateFlowLayout!
    @IBOutlet weak var prefetcher: UITableViewDataSourcePrefetching!   // a data source protocol too
    @IBOutlet weak var handler: (any UITableViewDelegate)!

    func reload() {
        let count = dataSource.numberOfStars(in: self)
        starsStack.arrangedSubviews.forEach { $0.isHidden = $0.tag >= count }
        delegate.ratingViewDidReload(self)
    }
}
