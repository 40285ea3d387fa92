class First: UIView { @IBOutlet weak var label: UILabel! }
