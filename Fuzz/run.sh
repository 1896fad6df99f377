#!/usr/bin/env bash
# Runs each fuzz harness (built by `make fuzz`) for FUZZ_RUNS executions, or
# FUZZ_SECONDS seconds when that is set, seeded from the project's fixtures and,
# when it is beside the clone, ../shared/corpus. Seeds are copied into
# .build-fuzz/ (never into the project). A crash or hang fails the run and
# leaves its input in .build-fuzz/findings/. FUZZ_MAX_LEN caps the input size
# (65536 by default; a smaller one makes long runs faster). FUZZ_CONFIG=release
# runs the optimized build (`make fuzz FUZZ_CONFIG=release`), for long runs;
# FUZZ_ONLY="FuzzContentLine FuzzRoundTrip" runs only those harnesses.
# FUZZ_TIMEOUT (10 s by default) is the time one input may take before it counts
# as a hang; raise it for a long run that shares the machine with builds, where a
# slow but finite input (RSCALE=ETHIOPIC takes ~4 s under ASan) can be starved
# past 10 s.
set -euo pipefail
cd "$(dirname "$0")/.."
# Swift's own crash backtracer hangs under AddressSanitizer: libFuzzer's report is the one wanted.
export SWIFT_BACKTRACE=enable=no
BIN=.build-fuzz/${FUZZ_CONFIG:-debug}
RUNS=${FUZZ_RUNS:-20000}
WORK=.build-fuzz/work
FINDINGS=.build-fuzz/findings
mkdir -p "$FINDINGS"
seed() {   # seed NAME SOURCES…: a fresh corpus folder for one harness
  local dir="$WORK/$1"; shift
  rm -rf "$dir"; mkdir -p "$dir"
  for source in "$@"; do
    [ -e "$source" ] || continue
    find "$source" -type f \( -name '*.ics' -o -name '*.yaml' -o -name '*.json' -o -name '*.txt' \) -size -64k -print0 |
      while IFS= read -r -d '' file; do cp "$file" "$dir/$(echo "$file" | md5sum | cut -c1-16)"; done
  done
  echo "$dir"
}
run() {   # run HARNESS CORPUS
  local harness=$1 corpus=$2 limit
  [[ -z "${FUZZ_ONLY:-}" || " $FUZZ_ONLY " == *" $harness "* ]] || return 0
  if [ ! -x "$BIN/$harness" ]; then
    echo "fuzz: $BIN/$harness is not built (make fuzz FUZZ_CONFIG=${FUZZ_CONFIG:-debug} builds it)" >&2
    return 1
  fi
  if [ -n "${FUZZ_SECONDS:-}" ]; then limit="-max_total_time=$FUZZ_SECONDS"; else limit="-runs=$RUNS"; fi
  echo "==> $harness ($limit, seeds: $(ls "$corpus" | wc -l))"
  "$BIN/$harness" "$limit" ${FUZZ_EXTRA:-} -dict=Fuzz/ical.dict -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" \
    -artifact_prefix="$FINDINGS/$harness-" -print_final_stats=1 "$corpus" 2>&1 | grep -E '^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY|INFO: Running with)' || true
  if ls "$FINDINGS/$harness-"* >/dev/null 2>&1; then
    echo "fuzz: $harness found a problem: $(ls "$FINDINGS/$harness-"*)" >&2
    return 1
  fi
}
# Only the harnesses asked for are seeded: seeding empties a corpus folder,
# which a run of the same harness started earlier may still be writing to.
wanted() { [[ -z "${FUZZ_ONLY:-}" || " $FUZZ_ONLY " == *" $1 "* ]]; }
rules_seed() {
  rules="$WORK/rules-seed"; rm -rf "$rules"; mkdir -p "$rules"
  grep -rhoE 'RRULE:[^"\\]+' Tests/ICalendarTests Tests/CountdownStoreTests examples ../shared/corpus 2>/dev/null | sed 's/^RRULE://' | sort -u | head -500 |
    while IFS= read -r rule; do printf '%s' "$rule" > "$rules/$(printf '%s' "$rule" | md5sum | cut -c1-16)"; done
  echo "$rules"
}
json_seed() {
  json="$WORK/json-seed"; rm -rf "$json"; mkdir -p "$json"
  printf '%s' '{"title":"Launch","date":"2027-03-20","repeat":"yearly","colors":["#FF0000"],"categories":["Work"]}' > "$json/draft"
  printf '%s' '{"title":"Standup","date":"2026-11-23","time":"09:30","timeZone":"Europe/Berlin","repeat":"FREQ=WEEKLY;BYDAY=MO"}' > "$json/timed"
  printf '%s' '{"name":"Family","timeZone":"Europe/Berlin","public":true,"countdown":{"mode":"daily","days":30,"maxEvents":500}}' > "$json/settings"
  printf '%s' '{"name":"Work","language":"pl","weekend":["fri","sat"],"holidays":"days-off"}' > "$json/working-days"
  printf '%s' '{"title":"Grandpa turns {n}","date":"1950-03-01","repeat":"yearly chinese","unit":"workdays"}' > "$json/lunar"
  echo "$json"
}
dav_seed() {
  dav="$WORK/dav-seed"; rm -rf "$dav"; mkdir -p "$dav"
  printf '%s' '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-home-set/></d:prop></d:propfind>' > "$dav/propfind"
  printf '%s' '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data><c:expand start="20270101T000000Z" end="20270201T000000Z"/></c:calendar-data></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="20270104T000000Z" end="20270105T000000Z"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>' > "$dav/query"
  printf '%s' '<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><d:href>/dav/calendars/anna/family/a%40b.ics</d:href></c:calendar-multiget>' > "$dav/multiget"
  printf '%s' '<d:sync-collection xmlns:d="DAV:"><d:sync-token>http://tminus.invalid/sync/7</d:sync-token><d:sync-level>1</d:sync-level><d:limit><d:nresults>10</d:nresults></d:limit><d:prop><d:getetag/></d:prop></d:sync-collection>' > "$dav/sync"
  printf '%s' '<d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Work</d:displayname><a:calendar-color>#FF8800FF</a:calendar-color></d:prop></d:set><d:remove><d:prop><d:x/></d:prop></d:remove></d:propertyupdate>' > "$dav/proppatch"
  # The shapes that crashed FoundationXML (issue #59): an unclosed declaration before a processing
  # instruction, UTF-16 without a byte-order mark, a declared UTF-7, and a long namespace.
  printf '%s' '<?xml version="1.0" <d:propfind xmlns:d="DAV:"><?x?><d:prop/></d:propfind>' > "$dav/unclosed-declaration"
  printf '%s' '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>' | iconv -f UTF-8 -t UTF-16LE > "$dav/utf16le"
  printf '%s' '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>' | iconv -f UTF-8 -t UTF-16BE > "$dav/utf16be"
  printf '%s' '<?xml version="1.0" encoding="UTF-7"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>' > "$dav/utf7"
  printf '<d:propfind xmlns:d="DAV:" xmlns:x="%s"><d:prop><x:a/><x:b/><d:getetag/><d:getetag/></d:prop></d:propfind>' "$(head -c 2000 /dev/zero | tr '\0' n)" > "$dav/long-namespace"
  printf '%s' '<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:href>/a.ics</d:href><d:href>/a.ics</d:href><![CDATA[<?x?>]]></c:calendar-multiget>' > "$dav/cdata-and-repeat"
  echo "$dav"
}
status=0
if wanted FuzzContentLine; then run FuzzContentLine "$(seed content Tests/ICalendarTests/Fixtures examples ../shared/corpus)" || status=1; fi
if wanted FuzzRecurrenceRule; then run FuzzRecurrenceRule "$(rules_seed)" || status=1; fi
if wanted FuzzRoundTrip; then run FuzzRoundTrip "$(seed roundtrip Tests/ICalendarTests/Fixtures examples ../shared/corpus)" || status=1; fi
if wanted FuzzFeedDefinition; then run FuzzFeedDefinition "$(seed yaml feeds)" || status=1; fi
if wanted FuzzAdminJSON; then run FuzzAdminJSON "$(json_seed)" || status=1; fi
if wanted FuzzDAVBodies; then
  # Bodies are read by libxml2's reader (StrictXML), with leak checks on.
  run FuzzDAVBodies "$(dav_seed)" || status=1
fi
if wanted FuzzPublicRequests; then
  # The harness writes its own seeds (cursors signed with its fixed key) before it runs.
  # Leak checks are off for it: LeakSanitizer counts the server built once at start
  # (thread pools, keys held by Swift's runtime in ways it cannot see) as leaked on
  # the first input. It looks for crashes, traps and hangs; the parsers' harnesses
  # keep their leak checks.
  requests="$WORK/requests"; rm -rf "$requests"; mkdir -p "$requests"
  ASAN_OPTIONS=detect_leaks=0 FUZZ_SEED_DIR="$requests" FUZZ_EXTRA="-detect_leaks=0" run FuzzPublicRequests "$requests" || status=1
fi
[ $status -eq 0 ] && echo "fuzz: no crash, no hang" || echo "fuzz: findings in $FINDINGS" >&2
exit $status
