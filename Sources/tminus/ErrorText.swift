import ArgumentParser
import CountdownStore
import Foundation
import ICalendar
import Subscriptions

/// What a person is told of an error, and the exit status it gets: the one
/// place that turns the errors of the layers below (the store, Foundation,
/// NIO) into words, so that no `NSCocoaErrorDomain` reaches the terminal.
enum ErrorText {
    static func describe(_ error: Error) -> String {
        switch error {
        case let error as CLIError: return error.description
        case let error as StoreError: return error.description
        case let error as CocoaError:
            let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? error.errorUserInfo[NSFilePathErrorKey] as? String
            let underlying = (error.userInfo[NSUnderlyingErrorKey] as? NSError).map { String(cString: strerror(Int32($0.code))) }
            let why = underlying ?? fileProblem(error.code)
            return path.map { "\($0): \(why)" } ?? why
        case let error as POSIXError: return String(cString: strerror(error.code.rawValue))
        case let error as CustomStringConvertible: return error.description
        default: return "\(error)"
        }
    }

    /// The kind of failure, by the table in `ExitStatus`.
    static func status(of error: Error) -> ExitStatus {
        switch error {
        case let error as CLIError: return error.status
        case let error as StoreError:
            switch error {
            case .feedNotFound, .countdownNotFound, .personNotFound, .spaceNotFound, .invitationNotFound: return .noInput
            case .unavailable, .unusable, .newerSchema: return .unavailable
            case .storageFull: return .ioError
            default: return .data
            }
        case is ICalendarError: return .data
        case let error as RulesDryRun.Failure: return error.isMissing ? .noInput : .data
        case is CocoaError, is POSIXError: return .ioError
        default: return .data
        }
    }

    private static func fileProblem(_ code: CocoaError.Code) -> String {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: "permission denied"
        case .fileWriteOutOfSpace: "the disk is full"
        case .fileWriteFileExists: "already exists"
        default: "cannot be read or written"
        }
    }
}
