import CLibical

/// Copies and frees a string returned by a libical `*_r` function. libical's
/// non-`_r` variants hand out a per-thread ring buffer that later calls overwrite.
func takeLibicalString(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
}

/// Copies a string libical still owns (a getter's result); never freed here.
func copyLibicalString(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// libical's `icalerrno` is a macro Swift cannot see.
var libicalErrno: icalerrorenum { icalerrno_return().pointee }

func clearLibicalErrno() { icalerrno_return().pointee = ICAL_NO_ERROR }
