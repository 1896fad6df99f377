import Countdowns
import GRDB

/// A token's visibility is stored as its raw value; the column's CHECK (v7)
/// admits only known ones, so decoding a row cannot meet another.
extension Visibility: DatabaseValueConvertible {}
