import Countdowns
import CountdownStore
import Foundation
import Hummingbird
import Services
import ICalendar

/// The countdown form (new and edit, with a live preview the script adds),
/// duplicate, delete with Undo, move to another feed, and ticking off tasks.
struct CountdownPages: Sendable {
    let app: WebApp

    struct FormView {
        struct Choice {
            var value: String
            var label: String
            var selected: Bool
        }
        var form: CountdownForm
        var isNew: Bool
        var action: String
        var feedName: String
        var feeds: [Choice]
        var units: [Choice]
        var alarms: [Choice]
        var kinds: [Choice]
        var repeats: [Choice]
        var everyUnits: [Choice]
        var ordinals: [Choice]
        var weekdays: [Choice]
        var directions: [Choice]
        var error: String?
        var errorField: String?
        var ruleReading: String?
        var zones: [String]
        var preview: CountdownRow?
        var cancel: String
        var id: Int64?
    }


    func register(on app: RouterGroup<WebAppContext>) {
        app.get("feeds/{slug}/countdowns/new") { request, context in
            let compiled = try await self.app.compiled(context)
            var form = CountdownForm()
            form.feed = compiled.slug
            form.date = compiled.feed.zone.local(of: self.app.clock()).date.adding(days: 30).iso
            if request.uri.queryParameters.get("kind") == "task" { form.kind = "task" }
            return self.app.render("countdown-form", title: "New countdown — tminus",
                                   self.formView(form, isNew: true, action: "/app/feeds/\(compiled.slug)/countdowns", compiled: compiled), context: context)
        }
        app.post("feeds/{slug}/countdowns") { request, context in try await self.save(request, context, id: nil) }
        app.get("countdowns/{id}/edit") { _, context in
            let (countdown, slug) = try await self.load(context)
            let compiled = try await self.app.compiled(slug)
            return self.app.render("countdown-form", title: "Edit \(countdown.title) — tminus",
                                   self.formView(CountdownForm(countdown, feed: slug), isNew: false, action: "/app/countdowns/\(countdown.id!)/edit",
                                                 compiled: compiled, countdown: countdown), context: context)
        }
        app.post("countdowns/{id}/edit") { request, context in try await self.save(request, context, id: try self.app.id(context)) }
        app.post("countdowns/{id}/duplicate") { request, context in
            let (original, slug) = try await self.load(context)
            var copy = original
            var generator = SystemRandomNumberGenerator()
            copy.id = nil
            copy.uid = StableUID.generate(using: &generator)
            copy.title = SafeText.title(original.title + " (copy)")
            copy.source = nil
            copy.overrides = []
            let saved = try await self.app.catalog.write { [copy] in try await $0.add(copy, toFeed: slug) }
            return self.app.redirect("/app/countdowns/\(saved.id!)/edit", flash: "Duplicated “\(original.title)”: this is the copy.", context: context)
        }
        app.post("countdowns/{id}/delete") { request, context in
            let (countdown, slug) = try await self.load(context)
            try await self.app.catalog.write { [id = countdown.id!] in try await $0.delete(id: id) }
            context.sessions.withLockedSession { session in
                session?.undo = DeletedCountdown(feed: slug, title: countdown.title, sequence: countdown.sequence,
                                                 calendar: CountdownArchive.text(of: countdown))
            }
            self.app.logger.info("countdown deleted", metadata: ["feed": "\(slug)", "id": "\(countdown.id!)"])
            return self.app.redirect("/app/feeds/\(slug)", flash: "Deleted “\(countdown.title)”.", context: context)
        }
        app.post("undo") { request, context in
            guard let deleted = context.sessions.session?.undo,
                  var countdown = try CountdownArchive.countdown(from: deleted.calendar) else {
                return self.app.redirect("/app", flash: "There is nothing to undo.", context: context)
            }
            countdown.sequence = deleted.sequence
            let restored = try await self.app.catalog.write { [countdown] in try await $0.restore(countdown, toFeed: deleted.feed) }
            context.sessions.withLockedSession { $0?.undo = nil }
            return self.app.redirect("/app/feeds/\(deleted.feed)#countdown-\(restored.id!)", flash: "Brought back “\(deleted.title)”.", context: context)
        }
        app.post("countdowns/{id}/complete") { request, context in try await self.setDone(true, request, context) }
        app.post("countdowns/{id}/reopen") { request, context in try await self.setDone(false, request, context) }
        app.get("describe-rule") { request, _ in
            // The live preview's plain-language reading of a custom rule.
            let rule = request.uri.queryParameters.get("rrule") ?? ""
            let date = CivilDate(parsing: request.uri.queryParameters.get("date") ?? "") ?? CivilDate(year: 2026, month: 1, day: 1)
            let reading = RuleReading.describe(String(rule.prefix(512)), startingOn: date)
            return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: reading)))
        }
    }

    private func load(_ context: WebAppContext) async throws -> (Countdown, String) {
        let id = try app.id(context)
        return try await app.store.countdown(id: id)
    }

    func formView(_ form: CountdownForm, isNew: Bool, action: String, compiled: CompiledFeed, countdown: Countdown? = nil,
                  error: CountdownDraft.Invalid? = nil) -> FormView {
        let feeds = app.catalog.storedFeeds.map { FormView.Choice(value: $0.feed.slug, label: $0.feed.name, selected: $0.feed.slug == (form.feed ?? compiled.slug)) }
        let units = DisplayUnit.allCases.map { FormView.Choice(value: $0.rawValue, label: $0.rawValue, selected: $0.rawValue == (form.unit ?? "dynamic")) }
        let alarmChoices = [("", "No alarm"), ("-PT15M", "15 minutes before"), ("-PT1H", "1 hour before"), ("-P1D", "1 day before"),
                            ("-P2D", "2 days before"), ("-P1W", "1 week before")]
        var alarms = alarmChoices.map { FormView.Choice(value: $0.0, label: $0.1, selected: $0.0 == (form.alarm ?? "")) }
        if let alarm = form.alarm.nonEmpty, !alarmChoices.contains(where: { $0.0 == alarm }) { alarms.append(.init(value: alarm, label: alarm, selected: true)) }
        var reading: String?
        if form.repeat == "custom", let rule = form.rrule.nonEmpty {
            reading = RuleReading.describe(rule, startingOn: CivilDate(parsing: form.date ?? "") ?? compiled.feed.zone.local(of: app.clock()).date)
        }
        var preview: CountdownRow?
        if let countdown {
            preview = CountdownRow(countdown: countdown, remaining: app.calculator(compiled.feed.zone).remaining(for: countdown),
                                   imageURL: { app.settings.imageURL($0) })
        }
        func choices(_ pairs: [(String, String)], _ current: String?, _ fallback: String) -> [FormView.Choice] {
            pairs.map { FormView.Choice(value: $0.0, label: $0.1, selected: $0.0 == (current ?? fallback)) }
        }
        let repeats = choices([("none", "Does not repeat"), ("daily", "Every day"), ("weekly", "Every week"), ("monthly", "Every month"),
                               ("yearly", "Every year"), ("every", "Every N days, weeks, months or years"), ("nth", "A weekday of the month (“last Friday”)"),
                               ("lastday", "The last day of every month"), ("yearly chinese", "Every year, Chinese calendar (lunar birthdays, New Year)"),
                               ("yearly hebrew", "Every year, Hebrew calendar"), ("yearly islamic", "Every year, Islamic calendar"),
                               ("custom", "Custom rule (RRULE)")], form.repeat, "none")
        let everyUnits = choices([("days", "days"), ("weeks", "weeks"), ("months", "months"), ("years", "years")], form.everyUnit, "weeks")
        let ordinals = choices([("1", "first"), ("2", "second"), ("3", "third"), ("4", "fourth"), ("-1", "last")], form.nthOrdinal, "-1")
        let weekdays = choices(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map { ($0, $0.prefix(1).uppercased() + $0.dropFirst()) },
                               form.nthWeekday, "friday")
        let directions = choices([("down", "Count down to it"), ("up", "Count up from it")], form.direction, "down")
        let kinds = choices([("event", "Event"), ("task", "Task (with a due date)")], form.kind, "event")
        return FormView(form: form, isNew: isNew, action: action, feedName: compiled.feed.name, feeds: feeds, units: units, alarms: alarms,
                        kinds: kinds, repeats: repeats, everyUnits: everyUnits, ordinals: ordinals, weekdays: weekdays, directions: directions,
                        error: error?.description, errorField: error?.field, ruleReading: reading, zones: TimeZoneChoices.all, preview: preview,
                        cancel: "/app/feeds/\(compiled.slug)", id: countdown?.id)
    }

    private func save(_ request: Request, _ context: WebAppContext, id: Int64?) async throws -> Response {
        var existing: Countdown?
        var slug = context.parameters.get("slug") ?? ""
        if let id { (existing, slug) = try await app.store.countdown(id: id) }
        let compiled = try await app.compiled(slug)
        let form = try await WebForm.decode(CountdownForm.self, request, limit: app.store.limits.maxImageBytes + (64 << 10))
        let action = id.map { "/app/countdowns/\($0)/edit" } ?? "/app/feeds/\(slug)/countdowns"
        func failed(_ error: CountdownDraft.Invalid) throws -> Response {
            try app.render("countdown-form", title: (id == nil ? "New countdown" : "Edit countdown") + " — tminus",
                           formView(form, isNew: id == nil, action: action, compiled: compiled, countdown: existing, error: error),
                           context: context, status: .unprocessableContent).response(from: request, context: context)
        }
        let countdown: Countdown
        switch Self.countdown(from: form, existing: existing, feedZone: compiled.feed.timeZone) {
        case .success(let built): countdown = built
        case .failure(let error): return try failed(error)
        }
        // The image is checked with the rest of the form, and kept in the same
        // transaction as the countdown and its move: a refusal at any step keeps nothing.
        var image: ImageUpload?
        if let bytes = form.imageBytes {
            guard let type = StoredImage.type(of: bytes) else {
                return try failed(.init(field: "image", message: "the file is not a png, jpeg, gif, webp or svg image"))
            }
            do { image = try ImageUpload(bytes, mimeType: type, limits: app.store.limits) } catch let error as StoreError {
                return try failed(.init(field: "image", message: error.description))
            }
        }
        let target = form.feed.nonEmpty ?? slug
        let saved = try await app.catalog.write { [countdown, image, slug] in
            try await $0.save(countdown, inFeed: slug, image: image, moveTo: target)
        }
        app.logger.info(existing == nil ? "countdown added" : "countdown saved", metadata: ["feed": "\(target)", "id": "\(saved.id ?? 0)"])
        let moved = target != slug ? " and moved it" : ""
        return app.redirect("/app/feeds/\(target)#countdown-\(saved.id ?? 0)", flash: "Saved “\(saved.title)”\(moved).", context: context)
    }

    /// The countdown a valid form stands for (edited or new), or the field that is wrong.
    static func countdown(from form: CountdownForm, existing: Countdown?, feedZone: String) -> Result<Countdown, CountdownDraft.Invalid> {
        Result { () throws(CountdownDraft.Invalid) -> Countdown in
            let draft = try form.draft()
            if var edited = existing {
                try draft.apply(to: &edited, feedZone: feedZone)
                return edited
            }
            var generator = SystemRandomNumberGenerator()
            return try draft.makeCountdown(uid: StableUID.generate(using: &generator), feedZone: feedZone)
        }
    }

    private func setDone(_ done: Bool, _ request: Request, _ context: WebAppContext) async throws -> Response {
        let (loaded, slug) = try await load(context)
        guard loaded.kind == .task else { throw HTTPError(.unprocessableContent, message: "only tasks can be ticked off") }
        var countdown = loaded
        if done { countdown.complete(at: app.clock()) } else { countdown.reopen() }
        try await app.catalog.write { [countdown] in try await $0.update(countdown) }
        let back = request.uri.queryParameters.get("back") == "tasks" ? "/app/tasks" : "/app/feeds/\(slug)#countdown-\(loaded.id!)"
        return app.redirect(back, flash: done ? "Done: “\(loaded.title)”." : "Reopened “\(loaded.title)”.", context: context)
    }
}
