/// A setting the server cannot start with (a key file of the wrong size, one
/// that cannot be written): `tminus serve` prints it and exits non-zero.
package enum ServerError: Error, CustomStringConvertible {
    case configuration(String)

    package var description: String {
        switch self { case .configuration(let message): message }
    }
}
