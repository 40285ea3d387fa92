class First: UIView { @IBOutlet var label: UILabel! }
