#!/usr/bin/env python3
"""The CalDAV section of `make bench` (issues #38, #62), release build, on loopback.

A 10,000-event calendar (../shared/bench/gen_calendar.py) in a feed a person
reads with an app password, and the same events, one object per UID, in
Radicale (Debian's) and Xandikos (PyPI) on the same machine. Medians of 5,
the servers taking turns, each a whole request and its body:
  - PROPFIND depth 1 (getetag) on the calendar: every object's ETag;
  - calendar-query, VEVENT over one week: repeats matched by any occurrence
    (goal < 100 ms), its count beside recurring-ical-events' over the file;
  - calendar-multiget of the same 100 objects with their data (goal < 20 ms);
  - sync-collection with nothing new, with wrk (tminus): what clients poll,
    beside the cached `.ics` of a 50-event feed on the same server.

Usage: caldav.py ROOT   (release binaries must be built; `make bench` does that)
"""
import base64
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

from serving import bench_main, GENERATOR, TMINUS, free_port, start, wait_ready, wrk

PROPFIND = '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>'
QUERY = ('<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><c:filter>'
         '<c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="20270104T000000Z" end="20270111T000000Z"/>'
         '</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>')
SYNC = ('<d:sync-collection xmlns:d="DAV:"><d:sync-token>{token}</d:sync-token><d:sync-level>1</d:sync-level>'
        '<d:prop><d:getetag/></d:prop></d:sync-collection>')


def dav(url, method, body, auth, depth="1"):
    request = urllib.request.Request(url, data=body.encode(), method=method, headers={
        "Authorization": auth, "Depth": depth, "Content-Type": "application/xml; charset=utf-8"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        data = response.read()
    return time.perf_counter() - started, data


def main():
    return bench_main("caldav", run)


WEEK = (datetime.datetime(2027, 1, 4, tzinfo=datetime.timezone.utc), datetime.datetime(2027, 1, 11, tzinfo=datetime.timezone.utc))
XANDIKOS = os.path.join(os.path.dirname(sys.executable), "xandikos")


def objects_of(path):
    """The file's events as one calendar object per UID (its overrides with it), each with the file's zones."""
    text = open(path, newline="").read()
    zones = "".join(re.findall(r"BEGIN:VTIMEZONE\r\n.*?END:VTIMEZONE\r\n", text, re.S))
    by_uid = {}
    for event in re.findall(r"BEGIN:VEVENT\r\n.*?END:VEVENT\r\n", text, re.S):
        uid = re.search(r"^UID:(.*?)\r$", event, re.M).group(1)
        by_uid.setdefault(uid, []).append(event)
    head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tminus bench//EN\r\n"
    return {uid: head + zones + "".join(events) + "END:VCALENDAR\r\n" for uid, events in by_uid.items()}


def responses(body):
    """The responses of a multistatus, whatever prefix the server gives DAV:."""
    return len(re.findall(rb"<(?:[A-Za-z0-9]+:)?response[ >]", body))


def week_truth(path):
    """How many objects have an occurrence in the week, as recurring-ical-events counts them."""
    import icalendar
    import recurring_ical_events
    calendar = icalendar.Calendar.from_ical(open(path, "rb").read())
    return len({str(event["UID"]) for event in recurring_ical_events.of(calendar).between(*WEEK)})


def wait_up(url, process, seconds=120):
    """Up when it answers at all (a 401 too)."""
    deadline = time.time() + seconds
    while time.time() < deadline and process.poll() is None:
        try:
            urllib.request.urlopen(url, timeout=2)
            return True
        except urllib.error.HTTPError:
            return True
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.2)
    return False


def peers(work, objects):
    """Radicale and Xandikos holding `objects`, each as (name, calendar URL, Authorization), when installed."""
    found = []
    if shutil.which("radicale"):
        root = os.path.join(work, "radicale")
        calendar = os.path.join(root, "collection-root", "anna", "f10k")
        os.makedirs(calendar)
        with open(os.path.join(calendar, ".Radicale.props"), "w") as props:
            json.dump({"tag": "VCALENDAR", "D:displayname": "f10k"}, props)
        for uid, text in objects.items():
            with open(os.path.join(calendar, uid + ".ics"), "w", newline="") as item:
                item.write(text)
        with open(os.path.join(root, "users"), "w") as users:
            users.write("anna:radicale-password\n")
        port = free_port()
        with open(os.path.join(root, "config"), "w") as config:
            config.write(f"[server]\nhosts = 127.0.0.1:{port}\n[auth]\ntype = htpasswd\nhtpasswd_filename = {root}/users\n"
                         f"htpasswd_encryption = plain\n[storage]\nfilesystem_folder = {root}\n[rights]\ntype = owner_only\n"
                         "[logging]\nlevel = warning\n")
        server = start(["radicale", "--config", os.path.join(root, "config")], os.path.join(work, "radicale.log"))
        if wait_up(f"http://127.0.0.1:{port}/", server):
            found.append(("radicale", f"http://127.0.0.1:{port}/anna/f10k/", "Basic " + base64.b64encode(b"anna:radicale-password").decode()))
    if os.path.exists(XANDIKOS):
        root = os.path.join(work, "xandikos")
        calendar = os.path.join(root, "user", "calendars", "calendar")
        os.makedirs(calendar)
        with open(os.path.join(calendar, ".xandikos"), "w") as config:
            config.write("[DEFAULT]\ntype = calendar\n\n")
        for uid, text in objects.items():
            with open(os.path.join(calendar, uid + ".ics"), "w", newline="") as item:
                item.write(text)
        # A collection is a git repository: the objects are its first commit.
        git = ["git", "-C", calendar, "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
        subprocess.run(["git", "init", "-q", calendar], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "bench calendar"], check=True)
        port = free_port()
        server = start([XANDIKOS, "-d", root, "-l", "127.0.0.1", "-p", str(port)], os.path.join(work, "xandikos.log"))
        if wait_up(f"http://127.0.0.1:{port}/", server):
            found.append(("xandikos", f"http://127.0.0.1:{port}/user/calendars/calendar/", "Basic " + base64.b64encode(b"user:unused").decode()))
    return found


def run(work):
    db = os.path.join(work, "caldav.sqlite")
    for count, slug in [(10000, "f10k"), (50, "f50")]:
        path = os.path.join(work, f"{slug}.ics")
        subprocess.run([sys.executable, GENERATOR, str(count), path], check=True)
        subprocess.run([TMINUS, "import", path, "--feed", slug, "--db", db], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([TMINUS, "users", "add", "anna", "--admin", "--password-stdin", "--db", db], input=b"a long enough password\n",
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    password = subprocess.run([TMINUS, "users", "app-password", "anna", "--label", "bench", "--db", db], check=True,
                              capture_output=True, text=True).stdout.strip()
    auth = "Basic " + base64.b64encode(f"anna:{password}".encode()).decode()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start([TMINUS, "serve", "--port", str(port), "--db", db, "--log-level", "warning"], os.path.join(work, "tminus.log"))
    wait_ready(base + "/healthz", server)
    calendar = base + "/dav/calendars/anna/f10k/"

    objects = objects_of(os.path.join(work, "f10k.ics"))
    truth = week_truth(os.path.join(work, "f10k.ics"))
    servers = [("tminus", calendar, auth)] + peers(work, objects)
    # The same 100 objects of each: the first UIDs in byte order.
    chosen = sorted(objects)[:100]
    figures = {name: {} for name, _, _ in servers}
    for name, url, authorization in servers:
        dav(url, "PROPFIND", PROPFIND, authorization)   # a first read: caches, a compile
        dav(url, "REPORT", QUERY, authorization)
    for _ in range(5):
        for name, url, authorization in servers:
            path = urllib.parse.urlparse(url).path
            multiget_body = ('<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>'
                             + "".join(f"<d:href>{path}{urllib.parse.quote(uid)}.ics</d:href>" for uid in chosen) + "</c:calendar-multiget>")
            for what, method, body in [("propfind", "PROPFIND", PROPFIND), ("query", "REPORT", QUERY), ("multiget", "REPORT", multiget_body)]:
                seconds, data = dav(url, method, body, authorization)
                figures[name].setdefault(what, []).append(seconds)
                figures[name][what + " body"] = data
    objects_listed = responses(figures["tminus"]["propfind body"]) - 1

    _, first = dav(calendar, "REPORT", SYNC.format(token=""), auth)
    token = re.search(rb"<d:sync-token>([^<]+)</d:sync-token>", first).group(1).decode()
    script = os.path.join(work, "sync.lua")
    with open(script, "w") as handle:
        body = SYNC.format(token=token).replace('"', '\\"')
        handle.write(f'wrk.method = "REPORT"\nwrk.body = "{body}"\nwrk.headers["Authorization"] = "{auth}"\n'
                     'wrk.headers["Depth"] = "1"\nwrk.headers["Content-Type"] = "application/xml"\n')
    sync = subprocess.run(["wrk", "-t2", "-c16", "-d5s", "-s", script, calendar], capture_output=True, text=True).stdout
    sync_rate = float(re.search(r"Requests/sec:\s+([\d.]+)", sync).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", sync)
    ics_rate = wrk(base + "/feeds/f50.ics")["rps"]

    print(f"\ncaldav, release build, a 10,000-event calendar ({objects_listed} objects), medians of 5, servers taking turns")
    print(f"  {'':34} " + "".join(f"{name:>14}" for name, _, _ in servers))
    for what, label, goal in [("propfind", "PROPFIND depth 1, every ETag", None), ("query", "calendar-query, a week of VEVENTs", 0.1),
                              ("multiget", "calendar-multiget, 100 with data", 0.02)]:
        cells = "".join(f"{statistics.median(figures[name][what]) * 1000:11.0f} ms" for name, _, _ in servers)
        verdict = "" if goal is None else f"  (goal < {goal * 1000:.0f} ms: {'ok' if statistics.median(figures['tminus'][what]) < goal else 'MISSED'})"
        print(f"  {label:<34} {cells}{verdict}")
    found = {name: responses(figures[name]["query body"]) for name, _, _ in servers}
    print(f"  {'the week found (objects)':<34} " + "".join(f"{found[name]:14d}" for name, _, _ in servers)
          + f"  (recurring-ical-events: {truth}; tminus {'agrees' if found['tminus'] == truth else 'DISAGREES'})")
    print(f"  sync-collection, nothing new (wrk -c16) {sync_rate:8.0f} req/s{' with errors: ' + errors.group(1) if errors else ''}; "
          f"cached f50.ics (-c64) {ics_rate:.0f} req/s")
    if found["tminus"] != truth:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
