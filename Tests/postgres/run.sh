#!/usr/bin/env bash
# `make test-postgres`: the store suite and the replica tests against a real,
# throwaway PostgreSQL. Starts a cluster with initdb and pg_ctl in a temporary
# folder (as the `postgres` user when run as root: initdb refuses root), on a
# free loopback port, runs the tests, and stops the cluster on the way out,
# failures and Ctrl-C included. Ends with `test-postgres: N passed, M failed`.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] || { echo "test-postgres: initdb not found (apt-get install postgresql)" >&2; exit 1; }
WORK=$(mktemp -d /tmp/tminus-pg.XXXXXX)
chmod 755 "$WORK"
AS=()
if [ "$(id -u)" -eq 0 ]; then chown postgres "$WORK"; AS=(runuser -u postgres --); fi
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
stop() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap stop EXIT
trap 'exit 130' INT TERM
"${AS[@]}" "$PGBIN/initdb" -D "$WORK/data" -U tminus --auth=trust -E UTF8 --locale=C.UTF-8 >"$WORK/initdb.log" 2>&1 \
  || { cat "$WORK/initdb.log" >&2; exit 1; }
OPTIONS="-p $PORT -k $WORK -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
"${AS[@]}" "$PGBIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w -t 30 -o "$OPTIONS" start >/dev/null \
  || { cat "$WORK/server.log" >&2; exit 1; }
echo "test-postgres: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT (data in $WORK)"
export TMINUS_TEST_POSTGRES="postgres://tminus@127.0.0.1:$PORT/postgres"
export TMINUS_PG_CTL="$PGBIN/pg_ctl" TMINUS_PG_DATA="$WORK/data" TMINUS_PG_AS="${AS[*]}" TMINUS_PG_OPTIONS="$OPTIONS"

passed=0; failed=0
check() {   # check NAME COMMAND…: one line per suite
  if "${@:2}"; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}
check "store suite on SQLite and PostgreSQL (swift test --filter CountdownStoreTests)" \
  swift test ${SWIFT_FLAGS:-} --filter 'CountdownStoreTests\.(ImportTests|RoundTripTests|StoreContractTests)'
if [ -f Tests/postgres/replicas.py ]; then
  check "replicas, failover, the database going away, copy (Tests/postgres/replicas.py)" python3 Tests/postgres/replicas.py "$ROOT"
fi
echo "test-postgres: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
