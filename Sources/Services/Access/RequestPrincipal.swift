/// Who the request being answered acts as, when its middleware learned it
/// from the request (a person's API token): the routes' use cases run as it
/// instead of their group's fixed principal. Task-local, so it holds for the
/// request's own task and what it awaits, and for nothing else.
public enum RequestPrincipal {
    @TaskLocal public static var current: Principal?
}
