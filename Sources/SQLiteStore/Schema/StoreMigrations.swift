import CountdownStore
import GRDB

/// Versioned schema. Migrations are append-only: never edit a shipped one.
package enum StoreMigrations {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: feeds, countdowns, categories, sources, images") { db in
            try db.create(table: "feed") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("slug", .text).notNull().unique()
                t.column("name", .text).notNull()
                t.column("description", .text)
                t.column("timeZone", .text).notNull()
                t.column("color", .text)
                t.column("isPublic", .boolean).notNull().defaults(to: true)
                t.column("countdownMode", .text).notNull()
                t.column("includeAlarms", .boolean).notNull().defaults(to: false)
                t.column("refreshInterval", .text).notNull()
                t.column("createdAt", .datetime).notNull()
                // Moves forward on every change to the feed or its countdowns, deletions included.
                t.column("updatedAt", .datetime).notNull()
            }
            try db.create(table: "source") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("feed", onDelete: .cascade).notNull()
                t.column("location", .text).notNull()
                t.column("etag", .text)
                t.column("lastModifiedHeader", .text)
                t.column("lastFetchedAt", .datetime)
                t.column("lastSuccessAt", .datetime)
                t.column("lastError", .text)
                t.uniqueKey(["feedId", "location"])
            }
            try db.create(table: "countdown") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("feed", onDelete: .cascade).notNull()
                t.belongsTo("source", onDelete: .setNull)
                t.column("uid", .text).notNull()
                t.column("title", .text).notNull()
                t.column("kind", .text).notNull()
                t.column("status", .text).notNull()
                // The first occurrence's date, for ordering lists without parsing.
                t.column("startsOn", .text).notNull()
                t.column("sequence", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("lastModified", .datetime).notNull()
                // The countdown as iCalendar with volatile fields cleared: lossless, and
                // what "did anything really change?" compares.
                t.column("content", .text).notNull()
                t.uniqueKey(["feedId", "uid"])
            }
            try db.create(table: "category") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("feed", onDelete: .cascade).notNull()
                t.column("name", .text).notNull()
                t.column("color", .text)
                t.uniqueKey(["feedId", "name"])
            }
            try db.create(table: "countdownCategory") { t in
                t.belongsTo("countdown", onDelete: .cascade).notNull()
                t.belongsTo("category", onDelete: .cascade).notNull()
                t.primaryKey(["countdownId", "categoryId"])
            }
            // Images live apart from countdown rows so that list queries never load them.
            try db.create(table: "image") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("sha256", .text).notNull().unique()
                t.column("mimeType", .text).notNull()
                t.column("bytes", .blob).notNull()
                t.column("createdAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v2: feed tokens and settings") { db in
            // Secrets are stored as SHA-256 hashes only.
            try db.create(table: "feedToken") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("feed", onDelete: .cascade).notNull()
                t.column("label", .text).notNull()
                t.column("tokenHash", .text).notNull().unique()
                t.column("createdAt", .datetime).notNull()
                t.column("lastUsedAt", .datetime)
                t.column("revokedAt", .datetime)
            }
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v3: feed revision") { db in
            // Rises on every change, whatever the clock says: what caches key on.
            try db.alter(table: "feed") { t in t.add(column: "revision", .integer).notNull().defaults(to: 0) }
        }
        migrator.registerMigration("v4: countdown calendar size") { db in
            // Clients refuse big subscriptions (Google stops near 1 MB): at most this many events.
            try db.alter(table: "feed") { t in t.add(column: "countdownMaxEvents", .integer).notNull().defaults(to: 2_000) }
        }
        migrator.registerMigration("v5: web app sessions and subscribed sources") { db in
            // Expiring key/value entries (the web app's sessions). Keys are stored as
            // SHA-256 hashes: a copy of the database opens no session.
            try db.create(table: "persistEntry") { t in
                t.primaryKey("keyHash", .text)
                t.column("value", .blob).notNull()
                t.column("expiresAt", .datetime)
            }
            try db.create(index: "persistEntryExpiry", on: "persistEntry", columns: ["expiresAt"])
            // URL sources added from the web app (feeds/*.yaml defines the others):
            // fetched again in the background like those.
            try db.alter(table: "source") { t in t.add(column: "subscribed", .boolean).notNull().defaults(to: false) }
            // The feed's celebrated days (half-birthdays, round day counts), as JSON; NULL is the default set.
            try db.alter(table: "feed") { t in t.add(column: "celebrations", .text) }
        }
        migrator.registerMigration("v6: source refresh lease") { db in
            // Until when one process (a replica) holds the right to fetch this source;
            // NULL when nobody does. PostgreSQL has the same column.
            try db.alter(table: "source") { t in t.add(column: "leaseUntil", .datetime) }
            // Where to POST after a change to the feed (a CDN's purge hook).
            try db.alter(table: "feed") { t in t.add(column: "purgeURL", .text) }
        }
        migrator.registerMigration("v7: token visibility, working days, language") { db in
            // How much of the feed a token link shows (Visibility). Existing links
            // keep showing everything, as they did.
            try db.alter(table: "feedToken") { t in
                t.add(column: "visibility", .text).notNull().defaults(to: "full")
                    .check { ["full", "titles", "busy"].contains($0) }
            }
            // Working days: the weekend's bits (Sunday = 1, Saturday = 64; NULL for
            // Saturday and Sunday) and the slug of the feed that holds the holidays.
            try db.alter(table: "feed") { t in
                t.add(column: "weekend", .integer)
                t.add(column: "holidays", .text)
                // The feed's language code ("de"); NULL for the viewer's.
                t.add(column: "language", .text)
            }
        }
        migrator.registerMigration("v8: feed sort") { db in
            // The feed's default order of its page and JSON ("title"); NULL for soonest first.
            try db.alter(table: "feed") { t in t.add(column: "sort", .text) }
        }
        migrator.registerMigration("v9: kept exports") { db in
            // Each feed view's exported calendar as last rendered (KeptExport): a
            // cache that answers a miss without compiling, never copied.
            try db.create(table: "feedExport") { t in
                t.column("feedId", .integer).notNull().references("feed", onDelete: .cascade)
                t.column("view", .text).notNull().check { ["none", "classified", "titles", "busy"].contains($0) }
                t.column("revision", .integer).notNull()
                t.column("variant", .text).notNull()
                // NULL: the view hides nothing, the row of view 'none' serves it.
                t.column("body", .blob)
                t.column("etag", .text)
                t.column("gzipped", .blob)
                t.column("gzippedEtag", .text)
                t.primaryKey(["feedId", "view"])
            }
        }
        migrator.registerMigration("v10: source logins") { db in
            // A login entered in the web app, sealed under a key outside the database.
            try db.alter(table: "source") { t in t.add(column: "login", .text) }
        }
        migrator.registerMigration("v11: source rules") { db in
            // The rules of a source added in the web app or the API (YAML, as under a source in feeds/*.yaml).
            try db.alter(table: "source") { t in
                t.add(column: "rules", .text)
                // A digest of the rules the last import from it went through: other rules now mean a full fetch.
                t.add(column: "importedWith", .text)
            }
        }
        migrator.registerMigration("v12: feed settings document") { db in
            // Every setting of a feed in one JSON document (`FeedSettingsColumn`, the
            // keys of feeds/*.yaml): a new setting needs no column. The countdown
            // mode, stored as "daily:60" until now, is typed there ({"countdown":
            // {"mode": "daily", "days": 60}}). PostgreSQL's v12 does the same.
            try db.alter(table: "feed") { t in t.add(column: "settings", .text).notNull().defaults(to: "{}") }
            let columns = LegacyFeedColumns.table.columnList
            for legacy in try LegacyFeedColumns.fetchAll(db, sql: "SELECT \(columns) FROM feed") {
                try db.execute(sql: "UPDATE feed SET settings = ? WHERE id = ?", arguments: [legacy.settings.rawValue, legacy.id])
            }
            try db.alter(table: "feed") { t in
                for column in LegacyFeedColumns.dropped { t.drop(column: column) }
            }
        }
        migrator.registerMigration("v13: people and spaces") { db in
            // People who sign in (issue #37): a bcrypt hash, never the password.
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("login", .text).notNull().unique()
                t.column("displayName", .text).notNull()
                t.column("passwordHash", .text)
                t.column("language", .text)
                t.column("isAdmin", .boolean).notNull().defaults(to: false)
                t.column("disabledAt", .datetime)
                t.column("createdAt", .datetime).notNull()
            }
            // Households, classes, teams; a member's role in each.
            try db.create(table: "space") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("slug", .text).notNull().unique()
                t.column("name", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "member") { t in
                t.column("spaceId", .integer).notNull().references("space", onDelete: .cascade)
                t.column("personId", .integer).notNull().references("person", onDelete: .cascade).indexed()
                t.column("role", .text).notNull().check { ["owner", "editor", "viewer"].contains($0) }
                t.column("joinedAt", .datetime).notNull()
                t.primaryKey(["spaceId", "personId"])
            }
            // A person's API tokens, kept as the SHA-256 of their secret.
            try db.create(table: "personToken") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("personId", .integer).notNull().references("person", onDelete: .cascade).indexed()
                t.column("label", .text).notNull()
                t.column("tokenHash", .text).notNull().unique()
                t.column("readOnly", .boolean).notNull().defaults(to: false)
                t.column("createdAt", .datetime).notNull()
                t.column("expiresAt", .datetime)
                t.column("lastUsedAt", .datetime)
                t.column("revokedAt", .datetime)
            }
            // Whose a feed is: a person's, a space's, or neither (the operator's, as every feed was before).
            try db.alter(table: "feed") { t in
                t.add(column: "personId", .integer).references("person", onDelete: .setNull)
                t.add(column: "spaceId", .integer).references("space", onDelete: .setNull)
            }
        }
        migrator.registerMigration("v14: who made and changed each countdown") { db in
            // A person's login, "admin token", "command line" or a source's address; NULL before.
            try db.alter(table: "countdown") { t in
                t.add(column: "createdBy", .text)
                t.add(column: "changedBy", .text)
            }
        }
        migrator.registerMigration("v15: the owner becomes the first administrator") { db in
            // Each person's sessions end on their own (a new password, "Sign out everywhere").
            try db.alter(table: "person") { t in t.add(column: "sessionEpoch", .text) }
            // The web app's one password becomes the administrator `owner`'s, who
            // owns every feed nobody owned; the settings it lived in go.
            try db.execute(sql: """
                INSERT INTO person (login, displayName, passwordHash, isAdmin, createdAt)
                SELECT 'owner', 'Owner', value, 1, strftime('%Y-%m-%d %H:%M:%f', 'now') FROM setting
                WHERE key = 'ownerPasswordHash' AND NOT EXISTS (SELECT 1 FROM person WHERE login = 'owner')
                """)
            // (None when a person `owner` with another password existed: then the feeds stay the operator's.)
            try db.execute(sql: """
                UPDATE feed SET personId = (
                    SELECT p.id FROM person p JOIN setting s ON s.key = 'ownerPasswordHash' AND p.passwordHash = s.value WHERE p.login = 'owner'
                ) WHERE personId IS NULL AND spaceId IS NULL
                """)
            try db.execute(sql: "DELETE FROM setting WHERE key IN ('ownerPasswordHash', 'sessionEpoch')")
        }
        migrator.registerMigration("v16: a second factor") { db in
            // A TOTP secret, sealed outside the database's reach; the last step used; recovery codes' hashes.
            try db.alter(table: "person") { t in
                t.add(column: "totpSecret", .text)
                t.add(column: "totpLastStep", .integer)
                t.add(column: "recoveryCodes", .text)
            }
        }
        migrator.registerMigration("v17: the board") { db in
            // A member may keep off their space's board.
            try db.alter(table: "member") { t in t.add(column: "hiddenFromBoard", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v18: a change stamp") { db in
            // One row that every write of what a server keeps in memory moves (StoreReader.changeStamp):
            // its once-a-second poll reads it instead of every feed, whoever wrote (the command line too).
            try db.execute(sql: "CREATE TABLE changeStamp (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)")
            try db.execute(sql: "INSERT INTO changeStamp (id, value) VALUES (1, 0)")
            // A token's last use is not a change: it is written once a minute per token in use (GRDB writes
            // every column, so the columns that count are compared, not named).
            let watched = [("feed", [String]()), ("feedToken", ["feedId", "label", "tokenHash", "revokedAt", "visibility"]), ("person", []),
                           ("space", []), ("member", []), ("personToken", ["personId", "label", "tokenHash", "readOnly", "expiresAt", "revokedAt"])]
            for (table, columns) in watched {
                let changed = columns.isEmpty ? "" : " WHEN " + columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
                for event in ["INSERT", "UPDATE", "DELETE"] {
                    let when = event == "UPDATE" ? changed : ""
                    try db.execute(sql: """
                        CREATE TRIGGER \(table)_\(event.lowercased())_moves_the_stamp AFTER \(event) ON \(table)\(when)
                        BEGIN UPDATE changeStamp SET value = value + 1; END
                        """)
                }
            }
        }
        migrator.registerMigration("v19: the change log") { db in
            // Each change to a countdown, in order (ChangeRecord): a space's activity, and what a calendar
            // client syncing a feed has not seen yet, deletions included. A feed's log goes with it.
            try db.create(table: "countdownChange") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("feedId", .integer).notNull().references("feed", onDelete: .cascade)
                t.column("countdownId", .integer).notNull()
                t.column("uid", .text).notNull()
                t.column("kind", .text).notNull().check { ChangeKind.allCases.map(\.rawValue).contains($0) }
                t.column("title", .text).notNull()
                t.column("actor", .text).notNull()
                t.column("at", .datetime).notNull()
            }
            // Reads are a few feeds' changes by id; the feed's deletion finds its rows by the same index.
            try db.create(index: "countdownChange_feedId_id", on: "countdownChange", columns: ["feedId", "id"])
        }
        migrator.registerMigration("v20: calendar apps") { db in
            // App passwords are person tokens of their own purpose: an API token is never a CalDAV password, nor the reverse.
            try db.alter(table: "personToken") { t in t.add(column: "purpose", .text).notNull().defaults(to: "api").check { ["api", "app"].contains($0) } }
            // The object names calendar apps chose (DavNameRecord).
            try db.create(table: "davName") { t in
                t.column("feedId", .integer).notNull().references("feed", onDelete: .cascade)
                t.column("uid", .text).notNull()
                t.column("name", .text).notNull()
                t.primaryKey(["feedId", "uid"])
                t.uniqueKey(["feedId", "name"])
            }
        }
        migrator.registerMigration("v21: each countdown's place in its feed's list") { db in
            // PlaceBound: where a countdown can at the earliest stand in its feed's soonest-first list,
            // written with the row; rows of older versions get theirs from the server's place round.
            try db.alter(table: "countdown") { t in
                t.add(column: "placeRank", .integer)
                t.add(column: "placeFrom", .integer)
                t.add(column: "placeCheckAt", .integer)
            }
            // A feed's first page reads its first rows in this order (issue #41).
            try db.create(index: "countdown_feedId_place", on: "countdown", columns: ["feedId", "placeRank", "placeFrom", "id"])
            // The place round finds what to place again by when (NULL: never placed).
            try db.create(index: "countdown_placeCheckAt", on: "countdown", columns: ["placeCheckAt"])
            // A database without countdowns holds none kept before 0.12: nothing to repair at its first start.
            try db.execute(sql: """
                INSERT OR IGNORE INTO setting (key, value) SELECT ?, 'on' WHERE NOT EXISTS (SELECT 1 FROM countdown)
                """, arguments: [SettingKey.keptCountdownsRepaired.rawValue])
        }
        migrator.registerMigration("v22: kept exports with the body last") { db in
            // A large export is written into its row in parts (SQLite's incremental blob I/O) after the row
            // is inserted with that many zeros, and SQLite leaves a zeroblob unwritten in memory only as a
            // record's last column: before it, 56 MB of zeros were made twice for a moment (issue #41).
            // The rows are copied over: a server that upgrades answers its misses from them at once.
            try db.create(table: "feedExportV22") { t in
                t.column("feedId", .integer).notNull().references("feed", onDelete: .cascade)
                t.column("view", .text).notNull().check { ["none", "classified", "titles", "busy"].contains($0) }
                t.column("revision", .integer).notNull()
                t.column("variant", .text).notNull()
                t.column("etag", .text)
                t.column("gzipped", .blob)
                t.column("gzippedEtag", .text)
                // NULL: the view hides nothing, the row of view 'none' serves it.
                t.column("body", .blob)
                t.primaryKey(["feedId", "view"])
            }
            try db.execute(sql: """
                INSERT INTO feedExportV22 (feedId, view, revision, variant, etag, gzipped, gzippedEtag, body)
                SELECT feedId, view, revision, variant, etag, gzipped, gzippedEtag, body FROM feedExport
                """)
            try db.drop(table: "feedExport")
            try db.rename(table: "feedExportV22", to: "feedExport")
        }
        migrator.registerMigration("v23: who changed it, by person id") { db in
            // The board credited a task by the login at the start of a label: a new `bob` got a deleted
            // bob's tasks, a person named `admin` the admin token's (issue #59, 13). The person's id is
            // kept beside the label; rows from before get the id of the person whose login the label is,
            // exactly, or "login via app" (what the label always was for a person).
            try db.alter(table: "countdown") { t in t.add(column: "changedByPerson", .integer) }
            try db.alter(table: "countdownChange") { t in t.add(column: "actorPerson", .integer) }
            for (table, label, id) in [("countdown", "changedBy", "changedByPerson"), ("countdownChange", "actor", "actorPerson")] {
                try db.execute(sql: """
                    UPDATE \(table) SET \(id) = (SELECT person.id FROM person
                        WHERE \(table).\(label) = person.login OR substr(\(table).\(label), 1, length(person.login) + 5) = person.login || ' via ')
                    """)
            }
        }
        migrator.registerMigration("v24: objects as calendar apps wrote them") { db in
            // DavObjectRecord: a CalDAV object's text as it was PUT (the truth its countdown is derived
            // from), and tasks without a date, which have no countdown row (issue #62).
            try db.create(table: "davObject") { t in
                t.column("feedId", .integer).notNull().references("feed", onDelete: .cascade)
                t.column("uid", .text).notNull()
                t.column("basis", .text)
                t.column("etag", .text).notNull()
                t.column("title", .text).notNull()
                t.column("savedAt", .datetime).notNull()
                t.column("body", .text).notNull()
                t.primaryKey(["feedId", "uid"])
            }
        }
        migrator.registerMigration("v25: busy-only members, and each person's own alarms") { db in
            // SpaceRole.busy: SQLite changes a CHECK only by making the table again (foreign keys are checked at the end).
            try db.execute(sql: """
                CREATE TABLE member_v25 (
                    spaceId INTEGER NOT NULL REFERENCES space(id) ON DELETE CASCADE,
                    personId INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                    role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer', 'busy')),
                    joinedAt DATETIME NOT NULL,
                    hiddenFromBoard BOOLEAN NOT NULL DEFAULT 0,
                    PRIMARY KEY (spaceId, personId)
                );
                INSERT INTO member_v25 (spaceId, personId, role, joinedAt, hiddenFromBoard)
                    SELECT spaceId, personId, role, joinedAt, hiddenFromBoard FROM member;
                DROP TABLE member;
                ALTER TABLE member_v25 RENAME TO member;
                CREATE INDEX member_on_personId ON member(personId);
                """)
            // The table's triggers went with it: v18's, which move the change stamp.
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER member_\(event.lowercased())_moves_the_stamp AFTER \(event) ON member
                    BEGIN UPDATE changeStamp SET value = value + 1; END
                    """)
            }
            // PersonalObjectRecord: a person's own alarms and TRANSP on a shared calendar's object.
            try db.create(table: "personalObject") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("personId", .integer).notNull().references("person", onDelete: .cascade)
                t.column("feedId", .integer).notNull().references("feed", onDelete: .cascade)
                t.column("uid", .text).notNull()
                t.column("body", .text).notNull()
                t.column("savedAt", .datetime).notNull()
                t.uniqueKey(["personId", "feedId", "uid"])
            }
            try db.create(index: "personalObject_on_feedId_uid", on: "personalObject", columns: ["feedId", "uid"])
        }
        return migrator
    }
}

extension LegacyFeedColumns: FetchableRecord {}
