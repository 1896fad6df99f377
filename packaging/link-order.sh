#!/usr/bin/env bash
# Regenerates packaging/tminus.order, the order in which the release link puts
# functions (lld --symbol-ordering-file, Makefile's RELEASE_FLAGS): every
# function a server runs while it starts, compiles a 10,000-countdown feed and
# answers each of its outputs, the web app's and CalDAV's first pages, then
# those an import adds. Placed together at the front of .text, they share
# pages: a 10k server's resident code went from 26 MB of touched pages spread
# over the whole 38 MB .text to 15 MB (docs/development.md, "The binary's own
# resident size"). Functions are found by running the stripped release binary
# under callgrind (exact, unlike sampling), and kept only when the binary
# defines them.
#
# Usage: packaging/link-order.sh DIST OUT   (`make link-order`; needs valgrind,
# and ../shared/bench/gen_calendar.py beside the clone). Minutes, not seconds:
# the compile of 10,000 countdowns runs under callgrind. Names missing from a
# later build are skipped by the link, and new functions land after the
# ordered ones, so a stale list costs resident pages, never correctness.
set -euo pipefail
export LC_ALL=C   # one collation for sort and comm
DIST=$1
OUT=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GENERATOR="$ROOT/../shared/bench/gen_calendar.py"
PYTHON=${TMINUS_PYTHON:-python3}
[ -f "$GENERATOR" ] || { echo "link-order: $GENERATOR is missing (../shared beside the clone)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "link-order: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }

BINARY=$(readlink -f "$DIST/release/tminus")
# Beside the original, so the copy finds the resource bundles; valgrind 3.19
# cannot read the DWARF 5 that the unstripped binary carries.
TRACED="$(dirname "$BINARY")/tminus-link-order"
WORK=$(mktemp -d /tmp/tminus-link-order-XXXXXX)
SERVER=""
cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true
    rm -rf "$WORK" "$TRACED"
}
trap cleanup EXIT
strip --strip-debug -o "$TRACED" "$BINARY"

echo "link-order: generating feeds"
"$PYTHON" "$GENERATOR" 10000 "$WORK/f10k.ics" >/dev/null
"$PYTHON" "$GENERATOR" 300 "$WORK/small.ics" >/dev/null
"$BINARY" import "$WORK/f10k.ics" --feed f10k --db "$WORK/server.sqlite" >/dev/null
head -c 24 /dev/urandom | base64 >"$WORK/admin-token"

PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "link-order: the server under callgrind on port $PORT"
valgrind --tool=callgrind --callgrind-out-file="$WORK/server.cg" --dump-instr=no --compress-strings=no \
    "$TRACED" serve --port "$PORT" --db "$WORK/server.sqlite" --cache-mb 16 --log-level warning \
    --admin-token-file "$WORK/admin-token" >"$WORK/server.log" 2>&1 &
SERVER=$!
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 600); do curl -s -o /dev/null "$BASE/healthz" && break; sleep 0.5; done
curl -s -o /dev/null "$BASE/healthz" || { echo "link-order: the server did not start:" >&2; tail -20 "$WORK/server.log" >&2; exit 1; }
for path in /feeds/f10k.json "/feeds/f10k.json?category=work" "/feeds/f10k.json?tz=America/Los_Angeles" \
            /feeds/f10k /feeds/f10k/1.svg "/feeds/f10k?tz=Asia/Tokyo" /feeds/f10k.ics /feeds/f10k/countdown.ics \
            "/feeds/f10k.json?limit=1000" /feeds/f10k.ics /feeds/nope.ics / /app /app/sign-in /.well-known/caldav /healthz; do
    curl -s -o /dev/null -m 900 "$BASE$path"
done
etag=$(curl -s -D - -o /dev/null "$BASE/feeds/f10k.ics" | tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
curl -s -o /dev/null -H "If-None-Match: $etag" "$BASE/feeds/f10k.ics"
kill -TERM "$SERVER"
while kill -0 "$SERVER" 2>/dev/null; do sleep 1; done
SERVER=""

echo "link-order: an import under callgrind"
valgrind --tool=callgrind --callgrind-out-file="$WORK/import.cg" --dump-instr=no --compress-strings=no \
    "$TRACED" import "$WORK/small.ics" --feed small --db "$WORK/import.sqlite" >/dev/null 2>&1

# Every function callgrind saw (fn= and cfn= lines name callers and callees),
# kept when the binary defines it: the server's first, then the import's.
nm --defined-only "$BINARY" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$WORK/defined"
functions() { grep -hoE '^c?fn=.*' "$1" | sed -E 's/^c?fn=(\([0-9]+\) ?)?//' | grep -v '^$' | sort -u | comm -12 - "$WORK/defined"; }
functions "$WORK/server.cg" >"$WORK/server"
functions "$WORK/import.cg" | comm -23 - "$WORK/server" >"$WORK/import"
cat "$WORK/server" "$WORK/import" >"$OUT"
echo "link-order: $(wc -l <"$WORK/server") functions of the server, $(wc -l <"$WORK/import") more of an import: $OUT"
