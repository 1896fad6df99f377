#!/usr/bin/env bash
# make interop: real clients that nobody here wrote, against a real tminus server.
# Starts `tminus serve` on a loopback port with the example feeds (feeds/), then
# vdirsyncer + khal, calcurse, python's icalendar / recurring-ical-events, a
# polling subscriber and headless Chromium. Screenshots go to artifacts/interop/.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
TMINUS=${TMINUS:-$ROOT/.build/debug/tminus}
PYTHON=${TMINUS_PYTHON:-python3}
ART=$ROOT/artifacts/interop
WORK=$(mktemp -d /tmp/tminus-interop.XXXXXX)
PORT=$($PYTHON -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
BASE="http://127.0.0.1:$PORT"
export TMINUS WORK
mkdir -p "$ART"
PASSED=0; FAILED=0
ok()   { echo "ok: $*"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*"; FAILED=$((FAILED + 1)); }
expect() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
count_from() { while IFS= read -r line; do echo "$line"; case $line in ok:*) PASSED=$((PASSED + 1));; FAIL:*) FAILED=$((FAILED + 1));; esac; done; }
# Runs a checker that prints ok:/FAIL: lines; a checker that crashes is a failure too.
run_checks() { # label command...
  local label=$1; shift
  "$@" > "$WORK/checks.out" 2>&1; local status=$?
  count_from < "$WORK/checks.out"
  if [ $status -ne 0 ] && ! grep -q '^FAIL:' "$WORK/checks.out"; then fail "$label exited with $status without reporting why"; fi
}

# The admin token: our own file, so the checks can use the API.
head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' > "$WORK/admin-token"
ADMIN=$(cat "$WORK/admin-token")
"$TMINUS" serve --port "$PORT" --db "$WORK/tminus.sqlite" --feeds feeds --admin-token-file "$WORK/admin-token" --log-level warning \
  > "$ART/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf "$BASE/healthz" >/dev/null && break; sleep 0.2; done
expect "tminus serves on $BASE" curl -sf "$BASE/healthz" -o /dev/null
api() { curl -sf -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' "$@"; }
TOKEN_URL=$(api -X POST -d '{"label":"interop"}' "$BASE/api/feeds/bills/tokens" | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)["ics"])')
TOKEN_URL=${TOKEN_URL/http:\/\/127.0.0.1:8080/$BASE}
expect "a private feed token URL is under 256 characters" test ${#TOKEN_URL} -lt 256

echo "== vdirsyncer and khal"
write_configs() {
  mkdir -p "$WORK/status" "$WORK/cal"
  : > "$WORK/vdirsyncer.conf"
  printf '[general]\nstatus_path = "%s/status/"\n' "$WORK" >> "$WORK/vdirsyncer.conf"
  printf '[calendars]\n' > "$WORK/khal.conf"
  for entry in "birthdays|$BASE/feeds/birthdays.ics" "exams|$BASE/feeds/exams.ics" "bills|$TOKEN_URL" "tasks_countdown|$BASE/feeds/tasks/countdown.ics"; do
    name=${entry%%|*}; url=${entry#*|}
    mkdir -p "$WORK/cal/$name"
    cat >> "$WORK/vdirsyncer.conf" <<CONF
[pair $name]
a = "${name}_remote"
b = "${name}_local"
collections = null
conflict_resolution = "a wins"
[storage ${name}_remote]
type = "http"
url = "$url"
[storage ${name}_local]
type = "filesystem"
path = "$WORK/cal/$name/"
fileext = ".ics"
CONF
    printf '[[%s]]\npath = %s/cal/%s/\ntype = calendar\n' "$name" "$WORK" "$name" >> "$WORK/khal.conf"
  done
}
khal_file() { echo "$WORK/khal-${1//\//_}.conf"; }
khal_config() { # zone
  cp "$WORK/khal.conf" "$(khal_file "$1")"
  printf '[locale]\nlocal_timezone = %s\ndefault_timezone = %s\ntimeformat = %%H:%%M\ndateformat = %%Y-%%m-%%d\nlongdateformat = %%Y-%%m-%%d\ndatetimeformat = %%Y-%%m-%%d %%H:%%M\nlongdatetimeformat = %%Y-%%m-%%d %%H:%%M\n' "$1" "$1" >> "$(khal_file "$1")"
}
khal_list() { # zone from to
  khal -c "$(khal_file "$1")" list --day-format "" --format "{start-date} {start-time} {title}" "$2" "$3" 2>&1
}
write_configs
export HOME=$WORK   # vdirsyncer and khal keep state under $HOME
# `yes` dies of SIGPIPE when discover stops reading; that is not a failure.
if { yes || true; } | vdirsyncer -c "$WORK/vdirsyncer.conf" discover >"$ART/vdirsyncer-discover.log" 2>&1 \
   && vdirsyncer -c "$WORK/vdirsyncer.conf" sync >"$ART/vdirsyncer-sync.log" 2>&1; then
  ok "vdirsyncer syncs a public, a private (token) and a countdown calendar"
else
  fail "vdirsyncer sync (see artifacts/interop/vdirsyncer-*.log)"; cat "$ART/vdirsyncer-sync.log" | tail -5
fi
khal_config Europe/Budapest; khal_config America/New_York
BUD=$(khal_list Europe/Budapest 2027-01-01 2027-03-01)
echo "$BUD" > "$ART/khal-budapest.txt"
expect "khal: Grandma's yearly birthday on 3 Feb 2027, all-day" grep -q "^2027-02-03  🎂 Grandma Zsófia" <<<"$BUD"
expect "khal: Anna's 29 Feb birthday clamped to 28 Feb 2027" grep -q "^2027-02-28  🎂 Anna's birthday" <<<"$BUD"
expect "khal (Budapest): the maths exam at 09:00" grep -q "^2027-01-12 09:00 📐 Maths final" <<<"$BUD"
NYC=$(khal_list America/New_York 2027-01-01 2027-03-01)
echo "$NYC" > "$ART/khal-new-york.txt"
expect "khal (New York): the same exam at 03:00" grep -q "^2027-01-12 03:00 📐 Maths final" <<<"$NYC"
expect "khal (New York): the online test set in UTC at 03:00" grep -q "^2027-02-03 03:00 🚗 Driving theory" <<<"$NYC"
RENT=$(khal_list Europe/Budapest 2026-12-31 2027-01-02)
expect "khal: the private bills feed, through its token, has the rent on 1 Jan" grep -q "🏠 Rent" <<<"$RENT"
TODAY=$(TZ=Europe/Budapest date +%Y-%m-%d)   # the zone khal and the JSON use below
EXPECTED=$($PYTHON - "$BASE" <<'PY'
import json, sys, urllib.request
feed = json.load(urllib.request.urlopen(sys.argv[1] + "/feeds/tasks.json?tz=Europe/Budapest"))
for c in feed["countdowns"]:
    if c["state"] == "upcoming" and 0 < c["days"] < 30 and c["direction"] == "down":
        print(f'{c["title"]} — {c["days"]} day{"s" if c["days"] != 1 else ""}'); break
PY
)
if [ -n "$EXPECTED" ]; then
  expect "khal: today's countdown event reads \"$EXPECTED\"" grep -qF "$EXPECTED" <<<"$(khal_list Europe/Budapest "$TODAY" 1d)"
fi
# A change through the admin API reaches the subscriber, with SEQUENCE raised.
GRANDMA=$(api "$BASE/api/feeds/birthdays/countdowns" | $PYTHON -c 'import json,sys; print([c["id"] for c in json.load(sys.stdin)["countdowns"] if "Grandma" in c["title"]][0])')
api -X PATCH -d '{"title":"🎂 Grandma Zsófia (party at noon)"}' "$BASE/api/countdowns/$GRANDMA" >/dev/null
vdirsyncer -c "$WORK/vdirsyncer.conf" sync >>"$ART/vdirsyncer-sync.log" 2>&1
expect "khal shows the edited title after a sync" grep -q "Grandma Zsófia (party at noon)" <<<"$(khal_list Europe/Budapest 2027-02-01 2027-02-05)"
expect "the synced event's SEQUENCE rose to 1" grep -rlq "SEQUENCE:1" $(grep -rl "Grandma" "$WORK/cal/birthdays")

echo "== calcurse"
curl -sf "$BASE/feeds/exams.ics" -o "$WORK/exams.ics"
mkdir -p "$WORK/calcurse"
if TZ=Europe/Budapest calcurse -D "$WORK/calcurse" -i "$WORK/exams.ics" >"$ART/calcurse-import.log" 2>&1 && grep -q " 0 skipped" "$ART/calcurse-import.log" && ! grep -qi "error" "$ART/calcurse-import.log"; then
  ok "calcurse imports the exported exams calendar without errors"
else
  fail "calcurse import (see artifacts/interop/calcurse-import.log)"; tail -5 "$ART/calcurse-import.log"
fi
DAY=$(TZ=Europe/Budapest calcurse -D "$WORK/calcurse" -Q --from 01/12/2027 --days 1 2>&1)   # calcurse's default input format
echo "$DAY" > "$ART/calcurse-day.txt"
expect "calcurse: 12 Jan 2027 has the maths exam 09:00–12:00" grep -q "09:00 -> 12:00" <<<"$DAY"
expect "calcurse: and its title" grep -q "Maths final" <<<"$DAY"

echo "== python readers"
run_checks "python readers" env TMINUS="$TMINUS" "$PYTHON" Tests/interop/clients.py readers "$BASE" "$TOKEN_URL"

echo "== privacy per link: full, titles and busy tokens and the public link, read by icalendar"
run_checks "privacy per link" "$PYTHON" Tests/interop/privacy_check.py "$BASE" "$ADMIN"

echo "== a polling subscriber"
run_checks "polling subscriber" "$PYTHON" Tests/interop/clients.py poll "$BASE" "$ADMIN"

echo "== recipes"
LINE=$(TMINUS_URL=$BASE sh examples/recipes/next-countdown.sh holidays)
FIRST=$($PYTHON -c "import json,urllib.request; c=json.load(urllib.request.urlopen('$BASE/feeds/holidays.json?limit=1'))['countdowns'][0]; print(c['title'] + ': ' + c['text'])")
expect "the status-bar one-liner prints \"$LINE\"" test -n "$LINE" -a "$LINE" = "$FIRST"
run_checks "Home Assistant recipe" "$PYTHON" - "$BASE" <<'PY'
import json, sys, urllib.request, urllib.parse
import jinja2, yaml
base = sys.argv[1]
sensor = yaml.safe_load(open("examples/recipes/home-assistant.yaml"))["sensor"][0]
url = urllib.parse.urlsplit(sensor["resource"])
data = json.load(urllib.request.urlopen(base + url.path + "?" + url.query))
state = jinja2.Template(sensor["value_template"]).render(value_json=data)
first = data["countdowns"][0]
print(("ok: " if state == first["text"] else "FAIL: ") + f"Home Assistant's value_template renders {state!r}")
missing = [key for key in sensor["json_attributes"] if key not in first]
print(("ok: " if not missing else "FAIL: ") + f"its json_attributes all exist in the feed {missing}")
PY

echo "== headless Chromium"
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then fail "chromium is not installed"; else
  shoot() { timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars "$@" 2>/dev/null; }
  shoot --window-size=1200,900 --screenshot="$ART/index.png" "$BASE/" ; expect "screenshot of /" test -s "$ART/index.png"
  shoot --window-size=1200,1000 --screenshot="$ART/feed-birthdays.png" "$BASE/feeds/birthdays"; expect "screenshot of a feed page" test -s "$ART/feed-birthdays.png"
  shoot --window-size=420,1200 --screenshot="$ART/feed-holidays-phone.png" "$BASE/feeds/holidays"; expect "screenshot at phone width" test -s "$ART/feed-holidays-phone.png"
  CARD=$(api "$BASE/api/feeds/holidays/countdowns" | $PYTHON -c 'import json,sys; print(json.load(sys.stdin)["countdowns"][0]["id"])')
  shoot --window-size=320,330 --screenshot="$ART/card.png" "$BASE/feeds/holidays/$CARD.svg"; expect "an SVG card rendered to PNG" test -s "$ART/card.png"
  timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --virtual-time-budget=3000 --dump-dom \
    "$BASE/feeds/holidays" > "$WORK/dom.html" 2> "$ART/chromium-console.log"
  CARDS=$(grep -c '<article class="card' "$WORK/dom.html")
  FILLED=$(grep -cE '<span class="number len-[a-z]+">[^<]+</span><span class="unit">[^<]*</span>' "$WORK/dom.html")
  WANT=$($PYTHON -c "import json,urllib.request; print(len(json.load(urllib.request.urlopen('$BASE/feeds/holidays.json'))['countdowns']))")
  expect "--dump-dom: every card ($CARDS of $WANT) shows its number and unit after the script ran" test "$CARDS" -eq "$WANT" -a "$FILLED" -eq "$WANT"
  expect "no console errors or CSP refusals" bash -c "! grep -qiE 'Uncaught|Refused to|CONSOLE.*(error|Error)' '$ART/chromium-console.log'"
fi

echo "== feed rules: a merged feed with prefixes and one copy of each event"
# examples/recipes/merged-feed.yaml, with its paths made absolute, served on its own.
mkdir -p "$WORK/rules-feeds"
sed "s|file: \.\./|file: $ROOT/examples/|" examples/recipes/merged-feed.yaml > "$WORK/rules-feeds/school-year.yaml"
RULES_PORT=$($PYTHON -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$TMINUS" serve --port "$RULES_PORT" --db "$WORK/rules.sqlite" --feeds "$WORK/rules-feeds" --admin-token-file "$WORK/admin-token" \
  --log-level info > "$ART/rules-server.log" 2>&1 &
RULES_SERVER=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$RULES_PORT/healthz" >/dev/null && break; sleep 0.2; done
curl -sf "http://127.0.0.1:$RULES_PORT/feeds/school-year.ics" > "$WORK/school-year.ics"
kill "$RULES_SERVER" 2>/dev/null; wait "$RULES_SERVER" 2>/dev/null
"$TMINUS" rules test school-year --feeds "$WORK/rules-feeds" > "$ART/rules-test.txt" 2>&1
expect "tminus rules test says the portal's Maths final is a duplicate the exams calendar wins" \
  grep -q 'duplicate 2027-01-12 09:00  Maths Final → School: Maths Final  \[exams wins\]' "$ART/rules-test.txt"
expect "and which rule dropped the tentative staff day" grep -q 'Staff training day (to be confirmed)  \[sources\[1\].exclude.status\]' "$ART/rules-test.txt"
run_checks "merged feed read by icalendar and recurring-ical-events" $PYTHON - "$WORK/school-year.ics" <<'PY'
import sys, datetime, icalendar, recurring_ical_events
calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
events = list(calendar.walk("VEVENT"))
def check(what, condition):
    print(("ok: " if condition else "FAIL: ") + what)
titles = sorted(str(event["SUMMARY"]) for event in events)
check(f"icalendar reads 7 events: the 4 exams and 3 of the portal's 5 ({titles})", len(events) == 7)
portal = [event for event in events if str(event["UID"]).endswith("@school.example")]
check("every portal event is marked 'School: '", len(portal) == 3 and all(str(e["SUMMARY"]).startswith("School: ") for e in portal))
check("no exam is marked", all(not str(e["SUMMARY"]).startswith("School: ") for e in events if e not in portal))
check("the tentative staff day is left out", not any("Staff training" in t for t in titles))
check("the portal's attendee lists and notes are stripped",
      not any("ATTENDEE" in e or "DESCRIPTION" in e for e in portal))
window = recurring_ical_events.of(calendar).between(datetime.date(2027, 1, 1), datetime.date(2027, 2, 1))
maths = [o for o in window if "maths final" in str(o["SUMMARY"]).lower()]
check(f"recurring-ical-events sees one Maths final in January, the exams calendar's ({[str(o['UID']) for o in maths]})",
      len(maths) == 1 and str(maths[0]["UID"]) == "exam-maths@tminus.example")
choir = [o for o in recurring_ical_events.of(calendar).between(datetime.date(2026, 12, 1), datetime.date(2027, 1, 15))
         if str(o["SUMMARY"]) == "School: Choir rehearsal"]
days = [o["DTSTART"].dt.date().isoformat() for o in choir]
check(f"the weekly choir keeps its rule and its exceptions: {days}",
      days == ["2026-12-02", "2026-12-09", "2026-12-16", "2027-01-06", "2027-01-13"])
PY

echo "== a source behind a login: Radicale with htpasswd"
RADICALE=$(command -v radicale || true)
if [ -z "$RADICALE" ]; then fail "radicale is not installed (make interop installs it)"; else
  RPORT=$($PYTHON -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  APORT=$($PYTHON -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  RPASS="radicale-$(head -c 12 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
  mkdir -p "$WORK/radicale" "$WORK/auth-feeds"
  printf 'anna:%s\n' "$RPASS" > "$WORK/radicale/users"
  printf '%s\n' "$RPASS" > "$WORK/radicale.secret"; printf 'not-the-password\n' > "$WORK/wrong.secret"
  chmod 600 "$WORK/radicale.secret" "$WORK/wrong.secret"
  "$RADICALE" --storage-filesystem-folder="$WORK/radicale/store" --auth-type=htpasswd --auth-htpasswd-filename="$WORK/radicale/users" \
    --auth-htpasswd-encryption=plain --server-hosts="127.0.0.1:$RPORT" > "$ART/radicale.log" 2>&1 &
  RADICALE_PID=$!
  for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$RPORT/" && break; sleep 0.2; done
  expect "Radicale takes the exams calendar (PUT with the password)" \
    test "$(curl -s -o /dev/null -w '%{http_code}' -u "anna:$RPASS" -X PUT -H 'Content-Type: text/calendar' --data-binary @examples/exams.ics \
      "http://127.0.0.1:$RPORT/anna/exams/")" = 201
  cat > "$WORK/auth-feeds/school.yaml" <<YAML
name: School (from Radicale)
sources:
  - url: http://127.0.0.1:$RPORT/anna/exams/
    auth:
      basic: {username: anna, passwordFile: ../radicale.secret}
YAML
  cat > "$WORK/auth-feeds/wrong.yaml" <<YAML
name: Wrong password
sources:
  - url: http://127.0.0.1:$RPORT/anna/exams/
    auth:
      basic: {username: anna, passwordFile: ../wrong.secret}
YAML
  "$TMINUS" serve --port "$APORT" --db "$WORK/auth.sqlite" --feeds "$WORK/auth-feeds" --admin-token-file "$WORK/admin-token" \
    --allow-private-sources --log-level debug > "$ART/auth-server.log" 2>&1 &
  AUTH_SERVER=$!
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$APORT/healthz" >/dev/null && break; sleep 0.2; done
  WANT=$(grep -c '^BEGIN:VEVENT' examples/exams.ics)
  # URL sources are fetched in the background from start: wait for both to have been tried.
  for _ in $(seq 1 100); do
    curl -s "http://127.0.0.1:$APORT/feeds/school.ics" > "$WORK/school.ics"
    curl -s -H "Authorization: Bearer $ADMIN" "http://127.0.0.1:$APORT/api/health" > "$WORK/auth-health.json"
    [ "$(grep -c '^BEGIN:VEVENT' "$WORK/school.ics")" -eq "$WANT" ] && grep -q 'HTTP 401' "$WORK/auth-health.json" && break
    sleep 0.2
  done
  expect "tminus logged in to Radicale: school.ics has all $WANT exams" test "$(grep -c '^BEGIN:VEVENT' "$WORK/school.ics")" -eq "$WANT"
  run_checks "read back by icalendar" $PYTHON - "$WORK/school.ics" "$WANT" <<'PY'
import sys, icalendar
calendar = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
found = len(list(calendar.walk("VEVENT")))
print(("ok: " if found == int(sys.argv[2]) else "FAIL: ") + f"icalendar reads {found} events from the feed made from Radicale")
PY
  expect "a wrong password is a clear source error (HTTP 401, login refused)" grep -q 'answered HTTP 401: it refused the login' "$WORK/auth-health.json"
  # The same calendar subscribed through the admin API, with a login (kept sealed) and rules of its own.
  ABASE="http://127.0.0.1:$APORT"
  api -X POST -d '{"slug":"cloud","name":"Cloud","public":true}' "$ABASE/api/feeds" > /dev/null
  $PYTHON - "$RPORT" "$RPASS" > "$WORK/subscribe.json" <<'PY'
import json, sys
print(json.dumps({"url": f"http://127.0.0.1:{sys.argv[1]}/anna/exams/", "username": "anna", "password": sys.argv[2],
                  "rules": "exclude:\n  summary: '(?i)maths'\nchange:\n  prefix: 'Cloud: '\n"}))
PY
  SUBSCRIBED=$(curl -s -o "$WORK/subscribed.json" -w '%{http_code}' -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
    --data-binary @"$WORK/subscribe.json" "$ABASE/api/feeds/cloud/sources")
  rm -f "$WORK/subscribe.json"
  expect "the API subscribes to Radicale with a login and rules (201)" test "$SUBSCRIBED" = 201
  curl -s "$ABASE/feeds/cloud.ics" > "$WORK/cloud.ics"
  run_checks "the API's subscription read back by icalendar" $PYTHON - "$WORK/cloud.ics" "$WANT" <<'PY'
import sys, icalendar
events = list(icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read()).walk("VEVENT"))
titles = [str(e["SUMMARY"]) for e in events]
def check(name, ok):
    print(("ok: " if ok else "FAIL: ") + name)
check(f"every event of the subscription is marked 'Cloud: ' ({len(titles)} events)", titles and all(t.startswith("Cloud: ") for t in titles))
check(f"its rules left out the maths exams ({len(titles)} of {sys.argv[2]})", 0 < len(titles) < int(sys.argv[2]) and not any("maths" in t.lower() for t in titles))
PY
  expect "the API never answers the login" bash -c "! grep -qF -- '$RPASS' '$WORK/subscribed.json' && grep -q '\"hasLogin\":true' '$WORK/subscribed.json'"
  kill "$AUTH_SERVER" 2>/dev/null; wait "$AUTH_SERVER" 2>/dev/null
  kill "$RADICALE_PID" 2>/dev/null; wait "$RADICALE_PID" 2>/dev/null
  expect "the password is in no log, health answer or feed" bash -c "! grep -rqF -- '$RPASS' '$ART/auth-server.log' '$WORK/auth-health.json' '$WORK/school.ics' '$WORK/cloud.ics' '$WORK/auth.sqlite'"
fi

# Sign-in behind an authenticating proxy (issue #37): nginx checks a password
# (auth_basic) and names the person in Remote-User; tminus believes that header
# only from the proxy's own source address (proxy_bind 127.0.0.3).
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  NGINX=$(command -v nginx || echo /usr/sbin/nginx)
  PPORT=$($PYTHON -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  NPORT=$($PYTHON -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir -p "$WORK/nginx"
  printf '%s\n' "bens long password" | "$TMINUS" users add ben --name Ben --password-stdin --db "$WORK/proxy.sqlite" > /dev/null
  printf 'ben:{PLAIN}open sesame\nmallory:{PLAIN}also open\n' > "$WORK/nginx/htpasswd"
  # Workers as whoever runs the test (as root, nginx would switch them to nobody, who cannot read $WORK).
  cat > "$WORK/nginx/nginx.conf" <<NGINX
user $(id -un) $(id -gn);
worker_processes 1;
error_log $WORK/nginx/error.log;
pid $WORK/nginx/nginx.pid;
events {}
http {
  access_log off;
  client_body_temp_path $WORK/nginx/body; proxy_temp_path $WORK/nginx/proxy; fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi; scgi_temp_path $WORK/nginx/scgi;
  server {
    listen 127.0.0.1:$NPORT;
    location / {
      auth_basic "tminus";
      auth_basic_user_file $WORK/nginx/htpasswd;
      proxy_set_header Remote-User \$remote_user;
      proxy_set_header Host \$host:\$server_port;
      proxy_bind 127.0.0.3;
      proxy_pass http://127.0.0.1:$PPORT;
    }
  }
}
NGINX
  "$TMINUS" serve --port "$PPORT" --db "$WORK/proxy.sqlite" --admin-token-file "$WORK/admin-token" --log-level notice \
    --trusted-proxy 127.0.0.3 --user-header Remote-User > "$ART/proxy-server.log" 2>&1 &
  PROXIED=$!
  "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' > "$ART/nginx.log" 2>&1 &
  NGINX_PID=$!
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PPORT/healthz" >/dev/null && curl -s -o /dev/null "http://127.0.0.1:$NPORT/" && break; sleep 0.2; done
  APP=$(curl -s -u 'ben:open sesame' "http://127.0.0.1:$NPORT/app" | tee "$ART/proxied-app.html")
  expect "behind nginx, the person its auth_basic let in is signed in to the app" grep -q "Signed in as Ben" <<< "$APP"
  STRANGER=$(curl -s -o "$WORK/stranger.html" -w '%{http_code}' -u 'mallory:also open' "http://127.0.0.1:$NPORT/app")
  expect "someone the proxy lets in but tminus does not know gets a 403 that says so" \
    bash -c "test '$STRANGER' = 403 && grep -q 'nobody here has that login' '$WORK/stranger.html'"
  expect "without the proxy's password, nginx answers 401" test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$NPORT/app")" = 401
  expect "the header sent by anyone but the proxy is ignored (a forged Remote-User goes to the sign-in page)" \
    test "$(curl -s -o /dev/null -w '%{redirect_url}' -H 'Remote-User: ben' "http://127.0.0.1:$PPORT/app")" = "http://127.0.0.1:$PPORT/app/signin"
  kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null
  kill "$PROXIED" 2>/dev/null; wait "$PROXIED" 2>/dev/null
  cp "$WORK/nginx/error.log" "$ART/nginx-error.log" 2>/dev/null
else
  fail "nginx is not installed (make interop installs nginx-light)"
fi

echo "== CalDAV: python's caldav library against tminus and Radicale, side by side; vdirsyncer two-way"
printf 'an interop password\n' | "$TMINUS" users add anna --admin --password-stdin --db "$WORK/tminus.sqlite" >/dev/null 2>&1
APP_PASSWORD=$("$TMINUS" users app-password anna --label "interop's caldav" --db "$WORK/tminus.sqlite" 2>/dev/null)
expect "an app password is made for anna" test -n "$APP_PASSWORD"
run_checks "caldav against tminus" "$PYTHON" Tests/interop/caldav_check.py "$BASE/" anna "$APP_PASSWORD" --label tminus
if command -v radicale >/dev/null; then
  RPORT=$($PYTHON -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir -p "$WORK/radicale"
  printf 'anna:radicale-password\n' > "$WORK/radicale/users"
  printf '[server]\nhosts = 127.0.0.1:%s\n[auth]\ntype = htpasswd\nhtpasswd_filename = %s/radicale/users\nhtpasswd_encryption = plain\n[storage]\nfilesystem_folder = %s/radicale/collections\n[rights]\ntype = owner_only\n' \
    "$RPORT" "$WORK" "$WORK" > "$WORK/radicale/config"
  radicale --config "$WORK/radicale/config" > "$ART/radicale.log" 2>&1 &
  RADICALE=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$RPORT/" && break; sleep 0.2; done
  run_checks "caldav against radicale" "$PYTHON" Tests/interop/caldav_check.py "http://127.0.0.1:$RPORT/" anna radicale-password --label radicale
  kill "$RADICALE" 2>/dev/null; wait "$RADICALE" 2>/dev/null
else
  fail "radicale is not installed (make interop installs it)"
fi

# An independent compatibility run (caldav-server-tester), tminus beside Radicale and Xandikos.
run_checks "caldav-server-tester" "$PYTHON" Tests/interop/caldav_compat.py "$BASE/" anna "$APP_PASSWORD" "$ART"

# python-caldav's own functional suite (its sdist's tests/test_caldav.py), as a person of no space:
# it makes, empties and deletes calendars of its own, and must see no one else's.
printf 'a suite password\n' | "$TMINUS" users add suite --password-stdin --db "$WORK/tminus.sqlite" >/dev/null 2>&1
SUITE_PASSWORD=$("$TMINUS" users app-password suite --label "python-caldav's suite" --db "$WORK/tminus.sqlite" 2>/dev/null)
run_checks "python-caldav's suite" "$PYTHON" Tests/interop/caldav_suite.py "$BASE/dav/" suite "$SUITE_PASSWORD" "$ART"

# vdirsyncer syncs one calendar both ways with a local folder, which khal reads.
DAV="$BASE/dav/calendars/anna/interop-sync/"
curl -s -o /dev/null -u "anna:$APP_PASSWORD" -X MKCALENDAR "$DAV"
# put_event NAME UID SUMMARY DTSTART [DTEND]: one event PUT to the synced calendar as an app would.
put_event() {
  local end=${5:+DTEND:$5$'\n'}
  printf 'BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//tminus interop//EN\nBEGIN:VEVENT\nUID:%s\nDTSTAMP:20260101T000000Z\nDTSTART:%s\n%sSUMMARY:%s\nEND:VEVENT\nEND:VCALENDAR\n' \
    "$2" "$4" "$end" "$3" | curl -s -o /dev/null -u "anna:$APP_PASSWORD" -X PUT -H 'Content-Type: text/calendar' --data-binary @- "${DAV}$1"
}
put_event from-server.ics from-server@interop "Made on the server" 20270310T090000Z 20270310T100000Z
mkdir -p "$WORK/twoway/local" "$WORK/twoway/status"
cat > "$WORK/twoway/vdirsyncer.conf" <<CONF
[general]
status_path = "$WORK/twoway/status/"
[pair twoway]
a = "twoway_remote"
b = "twoway_local"
collections = null
conflict_resolution = "a wins"
[storage twoway_remote]
type = "caldav"
url = "$DAV"
username = "anna"
password = "$APP_PASSWORD"
[storage twoway_local]
type = "filesystem"
path = "$WORK/twoway/local/"
fileext = ".ics"
CONF
printf '[calendars]\n[[twoway]]\npath = %s/twoway/local/\n[locale]\ntimeformat = %%H:%%M\ndateformat = %%Y-%%m-%%d\nlongdateformat = %%Y-%%m-%%d\ndatetimeformat = %%Y-%%m-%%d %%H:%%M\nlongdatetimeformat = %%Y-%%m-%%d %%H:%%M\ndefault_timezone = UTC\nlocal_timezone = UTC\n' "$WORK" > "$WORK/twoway/khal.conf"
twoway() { vdirsyncer -c "$WORK/twoway/vdirsyncer.conf" "$@" >> "$ART/vdirsyncer-caldav.log" 2>&1; }
server_has() { "$TMINUS" export --feed interop-sync --db "$WORK/tminus.sqlite" 2>/dev/null | grep -q "$1"; }
{ yes || true; } | twoway discover
twoway sync
expect "vdirsyncer's first sync brings the server's event to the folder" grep -rq "Made on the server" "$WORK/twoway/local/"
expect "khal reads it from the folder" bash -c "khal -c '$WORK/twoway/khal.conf' list 2027-03-10 2027-03-11 2>>'$ART/vdirsyncer-caldav.log' | grep -q 'Made on the server'"
cat > "$WORK/twoway/local/from-folder.ics" <<'ICS'
BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//tminus interop//EN
BEGIN:VEVENT
UID:from-folder@interop
DTSTAMP:20260101T000000Z
DTSTART:20270311T090000Z
DTEND:20270311T100000Z
SUMMARY:Made in the folder
END:VEVENT
END:VCALENDAR
ICS
twoway sync
expect "an event made on the folder's side reaches the server" server_has "Made in the folder"
put_event from-server.ics from-server@interop "Changed on the server" 20270310T090000Z 20270310T100000Z
twoway sync
expect "an edit on the server reaches the folder" grep -rq "Changed on the server" "$WORK/twoway/local/"
FOLDER_FILE=$(grep -rl "Made in the folder" "$WORK/twoway/local/" | head -1)
sed -i 's/SUMMARY:Made in the folder/SUMMARY:Edited in the folder/' "$FOLDER_FILE"
twoway sync
expect "an edit in the folder reaches the server" server_has "Edited in the folder"
SERVER_FILE=$(grep -rl "Changed on the server" "$WORK/twoway/local/" | head -1)
sed -i 's/SUMMARY:Changed on the server/SUMMARY:Both sides: the folder/' "$SERVER_FILE"
put_event from-server.ics from-server@interop "Both sides: the server" 20270310T090000Z 20270310T100000Z
twoway sync
expect "an event edited on both sides between two syncs ends as the server's on both (conflict_resolution = a wins)" \
  bash -c "grep -rq 'Both sides: the server' '$WORK/twoway/local/' && ! grep -rq 'Both sides: the folder' '$WORK/twoway/local/' && \"$TMINUS\" export --feed interop-sync --db '$WORK/tminus.sqlite' | grep -q 'Both sides: the server'"
rm -f "$FOLDER_FILE"
twoway sync
expect "a deletion in the folder deletes it on the server" bash -c "! \"$TMINUS\" export --feed interop-sync --db '$WORK/tminus.sqlite' | grep -q 'Edited in the folder'"
# vdirsyncer refuses to empty a side entirely: one event stays.
put_event stays.ics stays@interop "Stays" 20270312T090000Z
twoway sync
curl -s -o /dev/null -u "anna:$APP_PASSWORD" -X DELETE "${DAV}from-server.ics"
twoway sync
expect "a deletion on the server deletes it in the folder" bash -c "! grep -rq 'Both sides' '$WORK/twoway/local/'"

echo
echo "interop: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
