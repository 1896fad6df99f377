#!/usr/bin/env bash
# Runs a command beside a throwaway PostgreSQL: initdb and pg_ctl in a temporary
# folder (as the `postgres` user when run as root: initdb refuses root), on a
# free loopback port, stopped and deleted on the way out, failures and Ctrl-C
# included. The command gets TMINUS_TEST_POSTGRES (a URL to the `postgres`
# database, where it may create its own) and TMINUS_PG_CTL, TMINUS_PG_DATA,
# TMINUS_PG_AS and TMINUS_PG_OPTIONS (to stop and start the server).
#   Tests/postgres/cluster.sh COMMAND…
set -uo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PGBIN/initdb" ] || { echo "postgres: initdb not found (apt-get install postgresql)" >&2; exit 1; }
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
echo "postgres: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT (data in $WORK)"
export TMINUS_TEST_POSTGRES="postgres://tminus@127.0.0.1:$PORT/postgres"
export TMINUS_PG_CTL="$PGBIN/pg_ctl" TMINUS_PG_DATA="$WORK/data" TMINUS_PG_AS="${AS[*]}" TMINUS_PG_OPTIONS="$OPTIONS"
"$@"
