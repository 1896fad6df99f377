import Catalog
import Countdowns
import CountdownStore
import Foundation
import HTTPSupport
import Hummingbird
import ICalendar
import Pages
import Services

/// The countdown form (new and edit, with a live preview the script adds),
/// duplicate, delete with Undo, move to another feed, and ticking off tasks.
package struct CountdownPages: Sendable {
    package let app: WebApp

    package struct FormView {
        package struct Choice {
            package var value: String
            package var label: String
            package var selected: Bool
        }
        package var form: CountdownForm
        package var isNew: Bool
        package var action: String
        package var feedName: String
        package var feeds: [Choice]
        package var units: [Choice]
        package var alarms: [Choice]
        package var kinds: [Choice]
        package var repeats: [Choice]
        package var everyUnits: [Choice]
        package var ordinals: [Choice]
        package var weekdays: [Choice]
        package var directions: [Choice]
        package var error: String?
        package var errorField: String?
        package var ruleReading: String?
        package var zones: [String]
        package var preview: CountdownRow?
        /// The unit words the preview's script counts in, in the page's language.
        package var scriptWords: String
        package var cancel: String
        package var id: Int64?
        /// What was changed when the countdown was read from a calendar (`Countdown.warnings`).
        package var warnings: [String]
        /// Stored, not computed: templates see stored properties only.
        package var hasWarnings: Bool
    }


    package func register(on app: RouterGroup<WebAppContext>) {
        app.get("feeds/{slug}/countdowns/new") { request, context in
            let compiled = try await self.app.compiled(context)
            var form = CountdownForm()
            form.feed = compiled.slug
            form.date = compiled.feed.zone.local(of: self.app.clock()).date.adding(days: 30).iso
            if request.uri.queryParameters.get("kind") == "task" { form.kind = "task" }
            let words = self.app.words(context)
            return self.app.render("countdown-form", title: words["countdown.new"],
                                   self.formView(form, isNew: true, action: "/app/feeds/\(compiled.slug)/countdowns", compiled: compiled,
                                                 feeds: try await self.app.editableFeeds(), words: words),
                                   context: context)
        }
        app.post("feeds/{slug}/countdowns") { request, context in try await self.save(request, context, id: nil) }
        app.get("countdowns/{id}/edit") { _, context in
            let (countdown, slug) = try await self.load(context)
            let compiled = try await self.app.compiled(slug, context)
            let words = self.app.words(context)
            return self.app.render("countdown-form", title: words["countdown.editTitle", ["title": countdown.title]],
                                   self.formView(CountdownForm(countdown, feed: slug), isNew: false, action: "/app/countdowns/\(try countdown.savedID())/edit",
                                                 compiled: compiled, feeds: try await self.app.editableFeeds(), countdown: countdown, words: words),
                                   context: context)
        }
        app.post("countdowns/{id}/edit") { request, context in try await self.save(request, context, id: try self.app.id(context)) }
        app.post("countdowns/{id}/duplicate") { request, context in
            let (original, _) = try await self.load(context)
            let saved = try await self.app.service.duplicate(id: try original.savedID())
            return self.app.redirect("/app/countdowns/\(try saved.savedID())/edit", flash: self.app.words(context)["flash.duplicated", ["title": original.title]],
                                     context: context)
        }
        app.post("countdowns/{id}/delete") { request, context in
            let (countdown, slug) = try await self.load(context)
            let id = try countdown.savedID()
            try await self.app.service.delete(id: id)
            context.sessions.withLockedSession { session in
                session?.undo = DeletedCountdown(feed: slug, title: countdown.title, sequence: countdown.sequence,
                                                 calendar: CountdownArchive.text(of: countdown))
            }
            self.app.logger.info("countdown deleted", metadata: ["feed": "\(slug)", "id": "\(id)"])
            return self.app.redirect("/app/feeds/\(slug)", flash: self.app.words(context)["flash.deleted", ["title": countdown.title]], context: context)
        }
        app.post("undo") { request, context in
            guard let deleted = context.sessions.session?.undo,
                  var countdown = try CountdownArchive.countdown(from: deleted.calendar) else {
                return self.app.redirect("/app", flash: self.app.words(context)["flash.nothingToUndo"], context: context)
            }
            countdown.sequence = deleted.sequence
            let restored = try await self.app.service.restore(countdown, toFeed: deleted.feed)
            context.sessions.withLockedSession { $0?.undo = nil }
            return self.app.redirect("/app/feeds/\(deleted.feed)#countdown-\(try restored.savedID())", flash: self.app.words(context)["flash.restored", ["title": deleted.title]],
                                     context: context)
        }
        app.post("countdowns/{id}/complete") { request, context in try await self.setDone(true, request, context) }
        app.post("countdowns/{id}/reopen") { request, context in try await self.setDone(false, request, context) }
        app.get("describe-rule") { request, context in
            // The live preview's plain-language reading of a custom rule.
            let rule = request.uri.queryParameters.get("rrule") ?? ""
            let date = CivilDate(parsing: request.uri.queryParameters.get("date") ?? "") ?? CivilDate(year: 2026, month: 1, day: 1)
            let reading = RuleWords.reading(String(rule.prefix(512)), startingOn: date, self.app.words(context))
            return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                            body: .init(byteBuffer: ByteBuffer(string: reading)))
        }
    }

    private func load(_ context: WebAppContext) async throws -> (Countdown, String) {
        let id = try app.id(context)
        return try await app.service.countdown(id: id)
    }

    /// `feeds` are those the countdown may move to: the ones the person may change.
    package func formView(_ form: CountdownForm, isNew: Bool, action: String, compiled: CompiledFeed, feeds: [StoredFeed], countdown: Countdown? = nil,
                  error: CountdownDraft.Invalid? = nil, words: WebWords) -> FormView {
        let feeds = feeds.map { FormView.Choice(value: $0.feed.slug, label: $0.feed.name, selected: $0.feed.slug == (form.feed ?? compiled.slug)) }
        let units = DisplayUnit.allCases.map { FormView.Choice(value: $0.rawValue, label: words["unit.\($0.rawValue)"], selected: $0.rawValue == (form.unit ?? "dynamic")) }
        let alarmChoices = [("", words["alarm.none"]), ("-PT15M", words["alarm.15m"]), ("-PT1H", words["alarm.1h"]), ("-P1D", words["alarm.1d"]),
                            ("-P2D", words["alarm.2d"]), ("-P1W", words["alarm.1w"])]
        var alarms = alarmChoices.map { FormView.Choice(value: $0.0, label: $0.1, selected: $0.0 == (form.alarm ?? "")) }
        if let alarm = form.alarm.nonEmpty, !alarmChoices.contains(where: { $0.0 == alarm }) { alarms.append(.init(value: alarm, label: alarm, selected: true)) }
        var reading: String?
        if form.repeat == RepeatChoice.custom.rawValue, let rule = form.rrule.nonEmpty {
            reading = RuleWords.reading(rule, startingOn: CivilDate(parsing: form.date ?? "") ?? compiled.feed.zone.local(of: app.clock()).date, words)
        }
        var preview: CountdownRow?
        if let countdown {
            preview = CountdownRow(countdown: countdown, remaining: app.calculator(compiled.feed.zone, language: words.language).remaining(for: countdown),
                                   imageURL: { app.settings.imageURL($0) }, words: words)
        }
        func choices(_ pairs: [(String, String)], _ current: String?, _ fallback: String) -> [FormView.Choice] {
            pairs.map { FormView.Choice(value: $0.0, label: $0.1, selected: $0.0 == (current ?? fallback)) }
        }
        let repeats = choices(RepeatChoice.allCases.map { ($0.rawValue, words[$0.wordKey]) }, form.repeat, RepeatChoice.none.rawValue)
        let everyUnits = choices(["days", "weeks", "months", "years"].map { ($0, words["every.\($0)"]) }, form.everyUnit, "weeks")
        let ordinals = choices([("1", words["ordinal.1"]), ("2", words["ordinal.2"]), ("3", words["ordinal.3"]), ("4", words["ordinal.4"]),
                                ("-1", words["ordinal.last"])], form.nthOrdinal, "-1")
        let weekdays = choices(Self.weekdayNames(words.language), form.nthWeekday, "friday")
        let directions = choices([("down", words["direction.down"]), ("up", words["direction.up"])], form.direction, "down")
        let kinds = choices([("event", words["kind.event"]), ("task", words["kind.task"])], form.kind, "event")
        return FormView(form: form, isNew: isNew, action: action, feedName: compiled.feed.name, feeds: feeds, units: units, alarms: alarms,
                        kinds: kinds, repeats: repeats, everyUnits: everyUnits, ordinals: ordinals, weekdays: weekdays, directions: directions,
                        error: error.map { Self.text(of: $0, words) }, errorField: error?.field.rawValue, ruleReading: reading, zones: TimeZoneChoices.all, preview: preview,
                        scriptWords: words.language.scriptWordsJSON, cancel: "/app/feeds/\(compiled.slug)", id: countdown?.id,
                        warnings: countdown?.warnings ?? [], hasWarnings: !(countdown?.warnings ?? []).isEmpty)
    }

    private func save(_ request: Request, _ context: WebAppContext, id: Int64?) async throws -> Response {
        var existing: Countdown?
        var slug = context.parameters.get("slug") ?? ""
        if let id { (existing, slug) = try await app.service.countdown(id: id) }
        let compiled = try await app.compiled(slug, context)
        let words = app.words(context)
        let form = try await WebForm.decode(CountdownForm.self, request, limit: app.service.limits.maxImageBytes + (64 << 10))
        let action = id.map { "/app/countdowns/\($0)/edit" } ?? "/app/feeds/\(slug)/countdowns"
        let feeds = try await app.editableFeeds()
        func failed(_ error: CountdownDraft.Invalid) throws -> Response {
            try app.render("countdown-form", title: words[id == nil ? "countdown.new" : "countdown.edit"],
                           formView(form, isNew: id == nil, action: action, compiled: compiled, feeds: feeds, countdown: existing, error: error, words: words),
                           context: context, status: .unprocessableContent).response(from: request, context: context)
        }
        let countdown: Countdown
        switch Self.countdown(from: form, existing: existing, feedZone: compiled.feed.timeZone, words: words) {
        case .success(let built): countdown = built
        case .failure(let error): return try failed(error)
        }
        // The image is checked with the rest of the form, and kept in the same
        // transaction as the countdown and its move: a refusal at any step keeps nothing.
        var image: ImageUpload?
        if let bytes = form.imageBytes {
            do { image = try ImageUpload(sniffing: bytes, limits: app.service.limits) } catch is ImageUpload.NotAnImage {
                return try failed(.init(field: .image, message: words["countdown.notImage"]))
            } catch let error as StoreError {
                return try failed(.init(field: .image, message: error.description))
            }
        }
        let target = form.feed.nonEmpty ?? slug
        let saved = try await app.service.save(countdown, inFeed: slug, image: image, moveTo: target)
        app.logger.info(existing == nil ? "countdown added" : "countdown saved", metadata: ["feed": "\(target)", "id": "\(saved.id ?? 0)"])
        return app.redirect("/app/feeds/\(target)#countdown-\(saved.id ?? 0)",
                            flash: words[target != slug ? "flash.savedMoved" : "flash.saved", ["title": saved.title]], context: context)
    }

    /// The countdown a valid form stands for (edited or new), or the field that is wrong.
    package static func countdown(from form: CountdownForm, existing: Countdown?, feedZone: String, words: WebWords) -> Result<Countdown, CountdownDraft.Invalid> {
        Result { () throws(CountdownDraft.Invalid) -> Countdown in
            try form.draft(words).countdown(editing: existing, feedZone: feedZone)
        }
    }

    private func setDone(_ done: Bool, _ request: Request, _ context: WebAppContext) async throws -> Response {
        let (loaded, slug) = try await load(context)
        guard loaded.kind == .task else { throw HTTPError(.unprocessableContent, message: app.words(context)["error.onlyTasks"]) }
        try await app.service.setDone(id: try loaded.savedID(), done)
        let back = request.uri.queryParameters.get("back") == "tasks" ? "/app/tasks" : "/app/feeds/\(slug)#countdown-\(try loaded.savedID())"
        return app.redirect(back, flash: app.words(context)[done ? "flash.done" : "flash.reopened", ["title": loaded.title]],
                            context: context)
    }

    /// A form's error as the page shows it: the field's name and what is wrong
    /// with it in the page's language. A reason the model only names in English
    /// (a rule's parse error, a link's problem, which the API and the command
    /// line print the same) is shown as written.
    package static func text(of error: CountdownDraft.Invalid, _ words: WebWords) -> String {
        let field = words["field.\(error.field.rawValue)"]
        let message = Self.reason(error, words)
        return field.hasPrefix("field.") ? message : words["error.field", ["field": field, "message": message]]
    }

    private static func reason(_ error: CountdownDraft.Invalid, _ words: WebWords) -> String {
        switch error.reason {
        case .required: words["invalid.required"]
        case .requiredDate: words["invalid.requiredDate"]
        case .empty: words["invalid.empty"]
        case .titleTooLong(let count, let limit): words["invalid.titleTooLong", ["count": String(count), "limit": String(limit)]]
        case .notADate(let text): words["invalid.notADate", ["text": String(text.prefix(40))]]
        case .notATime(let text): words["invalid.notATime", ["text": String(text.prefix(40))]]
        case .unknownZone(let text): words["invalid.unknownZone", ["text": String(text.prefix(64))]]
        case .endBeforeStart(let text): words["invalid.endBeforeStart", ["text": String(text.prefix(40))]]
        case .endNotAfterStart(let text): words["invalid.endNotAfterStart", ["text": String(text.prefix(40))]]
        case .endFormat: words["invalid.endFormat"]
        case .fromNotBefore(let text, let date): words["invalid.fromNotBefore", ["text": String(text.prefix(40)), "date": date]]
        case .colors: words["invalid.colors"]
        case .notAColor(let text): words["invalid.notAColor", ["text": String(text.prefix(40))]]
        case .notADuration(let text): words["invalid.notADuration", ["text": String(text.prefix(40))]]
        case .priorityRange: words["invalid.priorityRange"]
        case .other: error.message
        }
    }

    /// The weekdays, Monday first, in `language` ("Montag"), by their form values.
    package static func weekdayNames(_ language: Language) -> [(String, String)] {
        let names = AppDates.weekdayNames(in: language)
        return ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].enumerated().map { index, value in
            (value, Language.capitalized(names[(index + 1) % 7]))
        }
    }
}
