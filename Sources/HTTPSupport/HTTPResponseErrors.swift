import Catalog
import Countdowns
import CountdownStore
import Hummingbird
import Services
import Subscriptions

// Store and validation errors answer with the status they deserve, through
// Hummingbird's own error path, and every one of them left the store unchanged.
// The body is HTTPError's JSON: {"error": {"message": "…"}}.

extension StoreError: HTTPResponseError {
    public var status: HTTPResponse.Status {
        switch self {
        case .feedNotFound, .countdownNotFound, .personNotFound, .spaceNotFound, .invitationNotFound: .notFound
        case .feedExists, .duplicateUID, .loginTaken: .conflict
        case .invalidSlug: .badRequest
        case .tooLarge, .tooManyComponents, .countdownTooLarge: .contentTooLarge
        case .unusableCalendar, .invalid: .unprocessableContent
        case .storageFull, .overQuota: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        case .unavailable, .unusable, .newerSchema: .serviceUnavailable
        case .unsaved: .internalServerError
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [:]
        // A database that went away is usually back within seconds.
        if case .unavailable = self { headers[.retryAfter] = "10" }
        return try HTTPError(status, headers: headers, message: description).response(from: request, context: context)
    }
}

/// An error whose description is the whole answer: its status, and
/// HTTPError's JSON body with the description as the message.
public protocol DescribedHTTPError: HTTPResponseError, CustomStringConvertible {}

extension DescribedHTTPError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try HTTPError(status, message: description).response(from: request, context: context)
    }
}

extension UnusableCursor: DescribedHTTPError {
    package var status: HTTPResponse.Status {
        switch self {
        case .notOurs: .badRequest
        case .tooOld: .conflict
        }
    }
}

extension CountdownDraft.Invalid: DescribedHTTPError {
    public var status: HTTPResponse.Status { .unprocessableContent }
}

extension Visibility.Unknown: DescribedHTTPError {
    public var status: HTTPResponse.Status { .badRequest }
}

extension Feed.InvalidSetting: HTTPResponseError {
    public var status: HTTPResponse.Status { .unprocessableContent }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try HTTPError(status, message: message).response(from: request, context: context)
    }
}

extension RemoteCalendar.Refusal {
    /// The answer a refused address gets: the client's mistake, or the other server's.
    package var status: HTTPResponse.Status {
        switch self {
        case .notHTTP: .badRequest
        case .loginInAddress, .badLogin, .loginNotKept: .unprocessableContent
        case .sentNothing: .badGateway
        case .fetchFailed(let failure): failure.refused ? .unprocessableContent : .badGateway
        }
    }
}

extension SourceUseCases.Refusal: DescribedHTTPError {
    package var status: HTTPResponse.Status {
        switch self {
        case .definedInFile: .conflict
        case .notSubscribed: .notFound
        case .invalidRules: .unprocessableContent
        case .remote(let refusal): refusal.status
        case .previewedTooOften: .tooManyRequests
        }
    }
}

extension Authorization.Refused: DescribedHTTPError {
    public var status: HTTPResponse.Status { .forbidden }
}

extension FocusProblem: DescribedHTTPError {
    public var status: HTTPResponse.Status {
        switch self {
        case .invalid: .unprocessableContent
        case .alreadyRunning: .conflict
        case .notRunning: .conflict
        case .noPerson: .forbidden
        }
    }
}
