import Foundation
import PostgresStore
import Testing

/// `--db postgres://…` as an operator writes it.
struct PostgresLocationTests {
    @Test func hostPortUserAndDatabase() throws {
        let location = try PostgresLocation("postgres://tminus:s3cret@db.internal:6432/countdowns", environment: [:])
        #expect(location.user == "tminus" && location.password == "s3cret" && location.host == "db.internal")
        #expect(location.port == 6432 && location.database == "countdowns" && location.socketDirectory == nil)
        #expect(location.description == "postgres://tminus@db.internal:6432/countdowns", "logs never show the password")
    }

    @Test func unixSocketAndPasswordFromTheEnvironment() throws {
        let location = try PostgresLocation("postgresql://tminus@/countdowns?host=/run/postgresql", environment: ["PGPASSWORD": "from-env"])
        #expect(location.socketDirectory == "/run/postgresql" && location.host == nil && location.port == 5432)
        #expect(location.password == "from-env")
    }

    @Test func incompleteURLsAreRefusedWithoutEchoingThePassword() {
        for bad in ["postgres://db.internal/countdowns", "postgres://tminus:hunter2@db.internal", "mysql://x@y/z"] {
            #expect {
                _ = try PostgresLocation(bad, environment: [:])
            } throws: { error in
                !"\(error)".contains("hunter2") && "\(error)".contains("postgres://")
            }
        }
        #expect(!PostgresLocation.isPostgres("tminus.sqlite") && PostgresLocation.isPostgres("postgres://a@b/c"))
    }
}
