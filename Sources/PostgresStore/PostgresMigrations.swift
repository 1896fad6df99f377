import CountdownStore
import Logging
import PostgresNIO

/// The PostgreSQL schema, in the same versions as the SQLite one
/// (`StoreMigrations`), so that `tminus copy` moves rows column for column and
/// either store can say which version it is at. Append-only: never edit a
/// shipped migration. Identifiers are unquoted camelCase, which PostgreSQL
/// folds to lower case; every statement here and in `PostgresCountdownStore`
/// spells them the same way, so the folding never shows.
///
/// Text that output is ordered by is compared with `COLLATE "C"` (byte order,
/// what SQLite does): under a locale's collation two stores would order the
/// same countdowns differently, and their feeds would differ in bytes and ETags.
enum PostgresMigrations {
    struct Migration {
        let name: String
        let statements: [String]
        /// Rows rewritten by Swift after `statements`, in the same transaction.
        var rewrite: (@Sendable (PostgresConnection, Logger) async throws -> Void)?
        /// Statements after the rewrite.
        var after: [String] = []
    }

    static let all: [Migration] = [
        Migration(name: "v1: feeds, countdowns, categories, sources, images", statements: [
            """
            CREATE TABLE feed (
                id BIGSERIAL PRIMARY KEY,
                slug TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                description TEXT,
                timeZone TEXT NOT NULL,
                color TEXT,
                isPublic BOOLEAN NOT NULL DEFAULT TRUE,
                countdownMode TEXT NOT NULL,
                includeAlarms BOOLEAN NOT NULL DEFAULT FALSE,
                refreshInterval TEXT NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL,
                updatedAt TIMESTAMPTZ NOT NULL
            )
            """,
            """
            CREATE TABLE source (
                id BIGSERIAL PRIMARY KEY,
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                location TEXT NOT NULL,
                etag TEXT,
                lastModifiedHeader TEXT,
                lastFetchedAt TIMESTAMPTZ,
                lastSuccessAt TIMESTAMPTZ,
                lastError TEXT,
                UNIQUE (feedId, location)
            )
            """,
            """
            CREATE TABLE countdown (
                id BIGSERIAL PRIMARY KEY,
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                sourceId BIGINT REFERENCES source(id) ON DELETE SET NULL,
                uid TEXT NOT NULL,
                title TEXT NOT NULL,
                kind TEXT NOT NULL,
                status TEXT NOT NULL,
                startsOn TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL,
                lastModified TIMESTAMPTZ NOT NULL,
                content TEXT NOT NULL,
                UNIQUE (feedId, uid)
            )
            """,
            "CREATE INDEX countdownSource ON countdown (sourceId)",
            """
            CREATE TABLE category (
                id BIGSERIAL PRIMARY KEY,
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                color TEXT,
                UNIQUE (feedId, name)
            )
            """,
            """
            CREATE TABLE countdownCategory (
                countdownId BIGINT NOT NULL REFERENCES countdown(id) ON DELETE CASCADE,
                categoryId BIGINT NOT NULL REFERENCES category(id) ON DELETE CASCADE,
                PRIMARY KEY (countdownId, categoryId)
            )
            """,
            "CREATE INDEX countdownCategoryCategory ON countdownCategory (categoryId)",
            """
            CREATE TABLE image (
                id BIGSERIAL PRIMARY KEY,
                sha256 TEXT NOT NULL UNIQUE,
                mimeType TEXT NOT NULL,
                bytes BYTEA NOT NULL,
                createdAt TIMESTAMPTZ NOT NULL
            )
            """,
        ]),
        Migration(name: "v2: feed tokens and settings", statements: [
            """
            CREATE TABLE feedToken (
                id BIGSERIAL PRIMARY KEY,
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                label TEXT NOT NULL,
                tokenHash TEXT NOT NULL UNIQUE,
                createdAt TIMESTAMPTZ NOT NULL,
                lastUsedAt TIMESTAMPTZ,
                revokedAt TIMESTAMPTZ
            )
            """,
            "CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ]),
        Migration(name: "v3: feed revision", statements: [
            "ALTER TABLE feed ADD COLUMN revision BIGINT NOT NULL DEFAULT 0",
        ]),
        Migration(name: "v4: countdown calendar size", statements: [
            "ALTER TABLE feed ADD COLUMN countdownMaxEvents INTEGER NOT NULL DEFAULT 2000",
        ]),
        Migration(name: "v5: web app sessions and subscribed sources", statements: [
            "CREATE TABLE persistEntry (keyHash TEXT PRIMARY KEY, value BYTEA NOT NULL, expiresAt TIMESTAMPTZ)",
            "CREATE INDEX persistEntryExpiry ON persistEntry (expiresAt)",
            "ALTER TABLE source ADD COLUMN subscribed BOOLEAN NOT NULL DEFAULT FALSE",
            "ALTER TABLE feed ADD COLUMN celebrations TEXT",
        ]),
        Migration(name: "v6: source refresh lease", statements: [
            "ALTER TABLE source ADD COLUMN leaseUntil TIMESTAMPTZ",
            "ALTER TABLE feed ADD COLUMN purgeURL TEXT",
        ]),
        Migration(name: "v7: token visibility, working days, language", statements: [
            "ALTER TABLE feedToken ADD COLUMN visibility TEXT NOT NULL DEFAULT 'full' CHECK (visibility IN ('full', 'titles', 'busy'))",
            "ALTER TABLE feed ADD COLUMN weekend INTEGER",
            "ALTER TABLE feed ADD COLUMN holidays TEXT",
            "ALTER TABLE feed ADD COLUMN language TEXT",
        ]),
        Migration(name: "v8: feed sort", statements: ["ALTER TABLE feed ADD COLUMN sort TEXT"]),
        Migration(name: "v9: kept exports", statements: [
            """
            CREATE TABLE feedExport (
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                view TEXT NOT NULL CHECK (view IN ('none', 'classified', 'titles', 'busy')),
                revision BIGINT NOT NULL,
                variant TEXT NOT NULL,
                body BYTEA,
                etag TEXT,
                gzipped BYTEA,
                gzippedEtag TEXT,
                PRIMARY KEY (feedId, view)
            )
            """,
        ]),
        Migration(name: "v10: source logins", statements: ["ALTER TABLE source ADD COLUMN login TEXT"]),
        Migration(name: "v11: source rules", statements: ["ALTER TABLE source ADD COLUMN rules TEXT", "ALTER TABLE source ADD COLUMN importedWith TEXT"]),
        // Every setting of a feed in one JSON document, as SQLite's v12.
        Migration(name: "v12: feed settings document", statements: ["ALTER TABLE feed ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'"],
                  rewrite: { connection, logger in
                      let table = LegacyFeedColumns.table
                      for row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(table.columnList) FROM feed"), logger: logger).rows() {
                          let cells = row.makeRandomAccess()
                          let legacy = try RowCoding.record(LegacyFeedColumns.self, from: try table.columns.enumerated().map { index, column in
                              try PostgresCountdownStore.value(cells[index], column.kind)
                          }, in: table)
                          try await connection.query("UPDATE feed SET settings = \(legacy.settings.rawValue) WHERE id = \(legacy.id)", logger: logger)
                      }
                  },
                  after: LegacyFeedColumns.dropped.map { "ALTER TABLE feed DROP COLUMN \($0)" }),
        // People, spaces, memberships and people's API tokens, as SQLite's v13.
        Migration(name: "v13: people and spaces", statements: [
            """
            CREATE TABLE person (
                id BIGSERIAL PRIMARY KEY,
                login TEXT NOT NULL UNIQUE,
                displayName TEXT NOT NULL,
                passwordHash TEXT,
                language TEXT,
                isAdmin BOOLEAN NOT NULL DEFAULT FALSE,
                disabledAt TIMESTAMPTZ,
                createdAt TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE TABLE space (id BIGSERIAL PRIMARY KEY, slug TEXT NOT NULL UNIQUE, name TEXT NOT NULL, createdAt TIMESTAMPTZ NOT NULL)",
            """
            CREATE TABLE member (
                spaceId BIGINT NOT NULL REFERENCES space(id) ON DELETE CASCADE,
                personId BIGINT NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
                joinedAt TIMESTAMPTZ NOT NULL,
                PRIMARY KEY (spaceId, personId)
            )
            """,
            "CREATE INDEX member_personId ON member (personId)",
            """
            CREATE TABLE personToken (
                id BIGSERIAL PRIMARY KEY,
                personId BIGINT NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                label TEXT NOT NULL,
                tokenHash TEXT NOT NULL UNIQUE,
                readOnly BOOLEAN NOT NULL DEFAULT FALSE,
                createdAt TIMESTAMPTZ NOT NULL,
                expiresAt TIMESTAMPTZ,
                lastUsedAt TIMESTAMPTZ,
                revokedAt TIMESTAMPTZ
            )
            """,
            "CREATE INDEX personToken_personId ON personToken (personId)",
            "ALTER TABLE feed ADD COLUMN personId BIGINT REFERENCES person(id) ON DELETE SET NULL",
            "ALTER TABLE feed ADD COLUMN spaceId BIGINT REFERENCES space(id) ON DELETE SET NULL",
        ]),
        Migration(name: "v14: who made and changed each countdown", statements: [
            "ALTER TABLE countdown ADD COLUMN createdBy TEXT", "ALTER TABLE countdown ADD COLUMN changedBy TEXT",
        ]),
        // The owner becomes the first administrator, as SQLite's v15.
        Migration(name: "v15: the owner becomes the first administrator", statements: [
            "ALTER TABLE person ADD COLUMN sessionEpoch TEXT",
            """
            INSERT INTO person (login, displayName, passwordHash, isAdmin, createdAt)
            SELECT 'owner', 'Owner', value, TRUE, now() FROM setting
            WHERE key = 'ownerPasswordHash' AND NOT EXISTS (SELECT 1 FROM person WHERE login = 'owner')
            """,
            """
            UPDATE feed SET personId = (
                SELECT p.id FROM person p JOIN setting s ON s.key = 'ownerPasswordHash' AND p.passwordHash = s.value WHERE p.login = 'owner'
            ) WHERE personId IS NULL AND spaceId IS NULL
            """,
            "DELETE FROM setting WHERE key IN ('ownerPasswordHash', 'sessionEpoch')",
        ]),
        Migration(name: "v16: a second factor", statements: [
            "ALTER TABLE person ADD COLUMN totpSecret TEXT", "ALTER TABLE person ADD COLUMN totpLastStep BIGINT",
            "ALTER TABLE person ADD COLUMN recoveryCodes TEXT",
        ]),
        Migration(name: "v17: the board", statements: ["ALTER TABLE member ADD COLUMN hiddenFromBoard BOOLEAN NOT NULL DEFAULT FALSE"]),
        // SQLite's v18 (a change stamp) has no counterpart: replicas hear NOTIFY. The change log, as SQLite's v19.
        Migration(name: "v19: the change log", statements: [
            """
            CREATE TABLE countdownChange (
                id BIGSERIAL PRIMARY KEY,
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                countdownId BIGINT NOT NULL,
                uid TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('added', 'changed', 'deleted', 'movedHere', 'movedAway')),
                title TEXT NOT NULL,
                actor TEXT NOT NULL,
                at TIMESTAMPTZ NOT NULL
            )
            """,
            "CREATE INDEX countdownChange_feedId_id ON countdownChange (feedId, id)",
        ]),
        Migration(name: "v20: calendar apps", statements: [
            "ALTER TABLE personToken ADD COLUMN purpose TEXT NOT NULL DEFAULT 'api' CHECK (purpose IN ('api', 'app'))",
            """
            CREATE TABLE davName (
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                uid TEXT NOT NULL,
                name TEXT NOT NULL,
                PRIMARY KEY (feedId, uid),
                UNIQUE (feedId, name)
            )
            """,
        ]),
        Migration(name: "v21: each countdown's place in its feed's list", statements: [
            "ALTER TABLE countdown ADD COLUMN placeRank BIGINT, ADD COLUMN placeFrom BIGINT, ADD COLUMN placeCheckAt BIGINT",
            "CREATE INDEX countdown_feedId_place ON countdown (feedId, placeRank, placeFrom NULLS FIRST, id)",
            "CREATE INDEX countdown_placeCheckAt ON countdown (placeCheckAt NULLS FIRST)",
            """
            INSERT INTO setting (key, value) SELECT '\(SettingKey.keptCountdownsRepaired.rawValue)', 'on'
            WHERE NOT EXISTS (SELECT 1 FROM countdown) ON CONFLICT DO NOTHING
            """,
        ]),
        // SQLite's table is rebuilt with the body last (a large export is written into its row in parts);
        // here the same columns in the same order, so that both stores keep one schema. The rows are copied over.
        Migration(name: "v22: kept exports with the body last", statements: [
            """
            CREATE TABLE feedExportV22 (
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                view TEXT NOT NULL CHECK (view IN ('none', 'classified', 'titles', 'busy')),
                revision BIGINT NOT NULL,
                variant TEXT NOT NULL,
                etag TEXT,
                gzipped BYTEA,
                gzippedEtag TEXT,
                body BYTEA,
                PRIMARY KEY (feedId, view)
            )
            """,
            """
            INSERT INTO feedExportV22 (feedId, view, revision, variant, etag, gzipped, gzippedEtag, body)
            SELECT feedId, view, revision, variant, etag, gzipped, gzippedEtag, body FROM feedExport
            """,
            "DROP TABLE feedExport",
            "ALTER TABLE feedExportV22 RENAME TO feedExport",
        ]),
        // The board credited a task by the login at the start of a label (issue #59, 13): the person's id
        // is kept beside it; rows from before get the id of the person whose login the label is.
        Migration(name: "v23: who changed it, by person id", statements: [
            "ALTER TABLE countdown ADD COLUMN changedByPerson BIGINT",
            "ALTER TABLE countdownChange ADD COLUMN actorPerson BIGINT",
            """
            UPDATE countdown SET changedByPerson = (SELECT person.id FROM person
                WHERE countdown.changedBy = person.login OR left(countdown.changedBy, length(person.login) + 5) = person.login || ' via ')
            """,
            """
            UPDATE countdownChange SET actorPerson = (SELECT person.id FROM person
                WHERE countdownChange.actor = person.login OR left(countdownChange.actor, length(person.login) + 5) = person.login || ' via ')
            """,
        ]),
        // A CalDAV object's text as it was PUT, and tasks without a date (no countdown row): issue #62.
        Migration(name: "v24: objects as calendar apps wrote them", statements: [
            """
            CREATE TABLE davObject (
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                uid TEXT NOT NULL,
                basis TEXT,
                etag TEXT NOT NULL,
                title TEXT NOT NULL,
                savedAt TIMESTAMPTZ NOT NULL,
                body TEXT NOT NULL,
                PRIMARY KEY (feedId, uid)
            )
            """,
        ]),
        // Busy-only members, and each person's own alarms on a shared calendar: issue #62.
        Migration(name: "v25: busy-only members, and each person's own alarms", statements: [
            "ALTER TABLE member DROP CONSTRAINT member_role_check",
            "ALTER TABLE member ADD CONSTRAINT member_role_check CHECK (role IN ('owner', 'editor', 'viewer', 'busy'))",
            """
            CREATE TABLE personalObject (
                id BIGSERIAL PRIMARY KEY,
                personId BIGINT NOT NULL REFERENCES person(id) ON DELETE CASCADE,
                feedId BIGINT NOT NULL REFERENCES feed(id) ON DELETE CASCADE,
                uid TEXT NOT NULL,
                body TEXT NOT NULL,
                savedAt TIMESTAMPTZ NOT NULL,
                UNIQUE (personId, feedId, uid)
            )
            """,
            "CREATE INDEX personalObject_feedId_uid ON personalObject (feedId, uid)",
        ]),
    ]
}

extension PostgresMigrations {
    /// Applies the migrations this database lacks, each in its own transaction,
    /// under a transaction-scoped advisory lock: replicas that start together
    /// take turns, and the second finds nothing left to do.
    static func migrate(_ client: PostgresClient, upTo last: String? = nil, logger: Logger) async throws {
        try await client.query("""
            CREATE TABLE IF NOT EXISTS schemaMigration (name TEXT PRIMARY KEY, appliedAt TIMESTAMPTZ NOT NULL DEFAULT now())
            """, logger: logger)
        // A database a newer tminus migrated is left alone: this build does not know its schema.
        let applied = try await client.query("SELECT name FROM schemaMigration", logger: logger).collect(String.self)
        if let newest = Set(applied).subtracting(all.map(\.name)).sorted().last {
            throw StoreError.newerSchema(database: "the PostgreSQL database", migration: newest)
        }
        let wanted = last.flatMap { name in all.firstIndex { $0.name == name } }.map { all[...$0] } ?? all[...]
        for migration in wanted {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                let done = try await connection.query("SELECT count(*) FROM schemaMigration WHERE name = \(migration.name)", logger: logger)
                    .collect(Int64.self).first ?? 0
                guard done == 0 else { return }
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await migration.rewrite?(connection, logger)
                for statement in migration.after {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO schemaMigration (name) VALUES (\(migration.name))", logger: logger)
                logger.notice("database migrated", metadata: ["migration": "\(migration.name)"])
            }
        }
    }

    /// The advisory lock migrations hold ("tminus" in ASCII).
    static let lockKey: Int64 = 0x746D_696E_7573
}
