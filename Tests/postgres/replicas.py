#!/usr/bin/env python3
"""Replicas on one PostgreSQL, run by `make test-postgres` (Tests/postgres/run.sh).

Needs TMINUS_TEST_POSTGRES (a server where it may create databases), and
TMINUS_PG_CTL / TMINUS_PG_DATA / TMINUS_PG_AS / TMINUS_PG_OPTIONS to stop and
start that server.
Each scenario gets a database of its own; every process it starts is stopped
by its PID at the end, failures included.

  1. two replicas behind a round-robin proxy: an edit through replica A is
     served by replica B within 1 s, and a poller alternating between them
     sees 200, then only 304s;
  2. failover: SIGKILL replica A while 64 connections read through the proxy
     (which retries the other replica once); the errors clients saw are counted;
  3. the database goes away for 10 s: cached feeds are still served, writes
     answer 503 with a message, and after PostgreSQL is back a write through A
     reaches B without restarting either;
  4. copy: `tminus copy` from a SQLite file with the example feeds, an image
     and a token; both stores then export byte-identical .ics and the same JSON.

One line per check, then `replicas: N passed, M failed`.
"""
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
TMINUS = os.path.join(ROOT, ".build/debug/tminus")
ADMIN = "replica-admin-token-0123456789abcdef"
BASE = os.environ["TMINUS_TEST_POSTGRES"]
results = []
processes = []


def check(name, ok, figure=""):
    results.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {figure}", flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database(name):
    """A fresh database on the test server; returns its URL."""
    subprocess.run(["psql", BASE, "-q", "-c", f"DROP DATABASE IF EXISTS {name}", "-c", f"CREATE DATABASE {name}"],
                   check=True, capture_output=True)
    parts = urllib.parse.urlsplit(BASE)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def pg_ctl(action):
    command = os.environ.get("TMINUS_PG_AS", "").split() + [os.environ["TMINUS_PG_CTL"], "-D", os.environ["TMINUS_PG_DATA"], "-w", "-t", "30"]
    if action == "stop":
        command += ["-m", "fast", "stop"]
    else:
        command += ["-l", os.path.join(os.path.dirname(os.environ["TMINUS_PG_DATA"]), "server.log"), "-o", os.environ["TMINUS_PG_OPTIONS"], "start"]
    subprocess.run(command, check=True, capture_output=True)


# ------------------------------------------------------------------ HTTP

def http(port, method, path, body=None, headers=None, timeout=10):
    """One request on a new connection: (status, headers, body)."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
        all_headers = dict(headers or {})
        if isinstance(body, (dict, list)):
            all_headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def admin(port, method, path, body=None, content_type=None):
    headers = {"Authorization": f"Bearer {ADMIN}"}
    if content_type:
        headers["Content-Type"] = content_type
    return http(port, method, path, body, headers)


class Proxy:
    """A round-robin TCP proxy: each new client connection goes to the next
    replica; when that one refuses the connection, the other is tried once."""

    def __init__(self, upstreams):
        self.upstreams = upstreams
        self.next = 0
        self.retries = 0

    async def handle(self, reader, writer):
        order = [self.upstreams[(self.next + i) % len(self.upstreams)] for i in range(len(self.upstreams))]
        self.next += 1
        upstream = None
        for index, port in enumerate(order):
            try:
                upstream = await asyncio.open_connection("127.0.0.1", port)
                if index:
                    self.retries += 1
                break
            except OSError:
                continue
        if upstream is None:
            writer.close()
            return
        up_reader, up_writer = upstream

        async def pipe(source, sink):
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def start(self):
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]


def serve(db, feeds, token_file, log):
    port = free_port()
    # Replicas behind one proxy share one public origin, which their pages link to.
    process = subprocess.Popen([TMINUS, "serve", "--port", str(port), "--db", db, "--feeds", feeds, "--admin-token-file", token_file,
                                "--base-url", "https://countdowns.example.org", "--log-level", "notice"], stdout=log, stderr=subprocess.STDOUT)
    processes.append(process)
    deadline = time.time() + 60
    while time.time() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"replicas: a replica exited at start (see {log.name})")
        try:
            if http(port, "GET", "/healthz", timeout=2)[0] == 200:
                return process, port
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("replicas: a replica did not come up")


def calendar(count, prefix="ev"):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tminus replicas//EN"]
    for i in range(count):
        lines += ["BEGIN:VEVENT", f"UID:{prefix}-{i}@replicas", "DTSTAMP:20260101T000000Z", f"SUMMARY:{prefix} {i}",
                  f"DTSTART;VALUE=DATE:2027{(i % 12) + 1:02d}{(i % 28) + 1:02d}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(lines) + "\r\n").encode()


# ------------------------------------------------------------------ scenarios

async def scenarios(work):
    feeds = os.path.join(work, "feeds")
    os.makedirs(feeds)
    with open(os.path.join(work, "team.ics"), "wb") as handle:
        handle.write(calendar(40))
    with open(os.path.join(feeds, "team.yaml"), "w") as handle:
        handle.write("name: Team\ntimeZone: Europe/Berlin\nsources:\n  - file: ../team.ics\n")
    token_file = os.path.join(work, "admin-token")
    fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.write(fd, ADMIN.encode())
    os.close(fd)
    log = open(os.path.join(work, "replicas.log"), "ab")
    db = database("tminus_replicas")

    a, port_a = serve(db, feeds, token_file, log)
    b, port_b = serve(db, feeds, token_file, log)
    proxy = Proxy([port_a, port_b])
    proxy_port = await proxy.start()

    # 1. an edit through A is served by B within a second
    status, _, body = admin(port_a, "GET", "/api/feeds/team/countdowns")
    ids = [c["id"] for c in json.loads(body)["countdowns"]]
    status, _, _ = admin(port_a, "PATCH", f"/api/countdowns/{ids[0]}", {"title": "Edited through A"})
    started = time.time()
    seen = None
    while time.time() - started < 5:
        if b"Edited through A" in http(port_b, "GET", "/feeds/team.ics")[2]:
            seen = time.time() - started
            break
        await asyncio.sleep(0.02)
    check("an edit through replica A is served by replica B within 1 s", status == 200 and seen is not None and seen < 1,
          f"PATCH {status}, seen by B after {seen if seen is None else round(seen * 1000)} ms")

    # ... and a feed moved into a space through A is the space's on B (issue #63, 3): a move keeps the
    # feed's revision, and B read a feed's row again only when its revision moved, so the space's members
    # did not see it there until its contents changed.
    env = dict(os.environ)
    subprocess.run([TMINUS, "users", "add", "anna", "--password-stdin", "--db", db], input=b"a long enough password\n",
                   check=True, capture_output=True, env=env)
    made = subprocess.run([TMINUS, "users", "token", "anna", "--label", "replicas", "--db", db], check=True, capture_output=True, env=env)
    anna = {"Authorization": "Bearer " + made.stdout.decode().split()[-1]}
    space = admin(port_a, "POST", "/api/spaces", {"slug": "club", "name": "Club", "owner": "anna"})[0]
    before = http(port_b, "GET", "/api/agenda?feed=team", headers=anna)[0]
    moved = admin(port_a, "POST", "/api/feeds/team/move", {"space": "club"})[0]
    started = time.time()
    seen = None
    while time.time() - started < 5:
        if http(port_b, "GET", "/api/agenda?feed=team", headers=anna)[0] == 200:
            seen = time.time() - started
            break
        await asyncio.sleep(0.02)
    check("a feed moved into a space through replica A is the space's on replica B", space == 201 and before == 404 and moved == 200 and seen is not None,
          f"space {space}, before {before}, move {moved}, seen by B after {seen if seen is None else round(seen * 1000)} ms")

    # ... and a poller alternating between them sees 200 → 304 → 304, never a spurious 200
    statuses = []
    etag = None
    for _ in range(12):
        status, headers, _ = await asyncio.to_thread(http, proxy_port, "GET", "/feeds/team.ics", None,
                                                     {"If-None-Match": etag} if etag else {})
        statuses.append(status)
        etag = headers.get("etag", etag)
    json_a, json_b = http(port_a, "GET", "/feeds/team.json"), http(port_b, "GET", "/feeds/team.json")
    check("a poller alternating between the replicas sees 200, then only 304s", statuses == [200] + [304] * 11, f"{statuses}")
    check("both replicas give the same bytes and ETag", json_a[2] == json_b[2] and json_a[1].get("etag") == json_b[1].get("etag"),
          f"{json_a[1].get('etag')} / {json_b[1].get('etag')}")

    # 2. failover: SIGKILL A while 64 connections read through the proxy
    stop = time.time() + 6
    outcomes = {"ok": 0, "failed": 0}

    def reader():
        while time.time() < stop:
            try:
                status = http(proxy_port, "GET", "/feeds/team.ics", timeout=5)[0]
                outcomes["ok" if status == 200 else "failed"] += 1
            except OSError:
                outcomes["failed"] += 1

    loop = asyncio.get_running_loop()
    readers = [loop.run_in_executor(None, reader) for _ in range(64)]
    await asyncio.sleep(2)
    a.send_signal(signal.SIGKILL)
    a.wait()
    await asyncio.gather(*readers)
    total = outcomes["ok"] + outcomes["failed"]
    check("replica B keeps serving after replica A is SIGKILLed (64 readers through the proxy)",
          outcomes["ok"] > 0 and outcomes["failed"] <= total * 0.02,
          f"{outcomes['ok']} ok, {outcomes['failed']} failed of {total}; the proxy retried {proxy.retries} connections on B")
    a, port_a = serve(db, feeds, token_file, log)
    proxy.upstreams = [port_a, port_b]

    # 3. the database goes away for 10 s
    before = http(port_b, "GET", "/feeds/team.ics")
    pg_ctl("stop")
    down_reads = []
    write_status, write_body = None, b""
    try:
        deadline = time.time() + 10
        while time.time() < deadline:
            down_reads.append(http(port_b, "GET", "/feeds/team.ics")[0])
            if write_status is None:
                write_status, _, write_body = admin(port_a, "POST", "/api/feeds/team/countdowns", {"title": "While down", "date": "2027-05-01"})
            await asyncio.sleep(0.5)
    finally:
        pg_ctl("start")
    check("with PostgreSQL stopped, cached feeds are still served", down_reads and all(s == 200 for s in down_reads),
          f"{len(down_reads)} reads: {sorted(set(down_reads))}")
    check("with PostgreSQL stopped, a write answers 503 with a message", write_status == 503 and b"database" in write_body,
          f"{write_status} {write_body[:120]!r}")
    recovered = None
    started = time.time()
    while time.time() - started < 30:
        try:
            status, _, _ = admin(port_a, "POST", "/api/feeds/team/countdowns", {"title": "After the restart", "date": "2027-05-02"})
        except OSError:
            status = None
        if status == 201 or status == 200:
            break
        await asyncio.sleep(0.5)
    seen_at = time.time()
    while time.time() - seen_at < 10:
        if b"After the restart" in http(port_b, "GET", "/feeds/team.ics")[2]:
            recovered = time.time() - started
            break
        await asyncio.sleep(0.1)
    check("after PostgreSQL is back, a write through A reaches B without restarting either", recovered is not None,
          f"{recovered if recovered is None else round(recovered, 1)} s after the restart")
    check("the replicas never exited", a.poll() is None and b.poll() is None, "")
    for process in (a, b):
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)

    # 4. copy: the example feeds, an image and a token, from SQLite to PostgreSQL
    sqlite = os.path.join(work, "examples.sqlite")
    server, port = serve(sqlite, os.path.join(ROOT, "feeds"), token_file, log)
    slugs = [feed["slug"] for feed in json.loads(admin(port, "GET", "/api/feeds")[2])]
    private = slugs[0]
    created = json.loads(admin(port, "POST", f"/api/feeds/{private}/tokens", {"label": "copy"})[2])
    first = json.loads(admin(port, "GET", f"/api/feeds/{private}/countdowns")[2])["countdowns"][0]["id"]
    png = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + bytes(range(256)) * 8
    image_status = admin(port, "PUT", f"/api/countdowns/{first}/image", png, "image/png")[0]
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=15)
    target = database("tminus_copy")
    copy = subprocess.run([TMINUS, "copy", "--from", sqlite, "--to", target], capture_output=True, text=True)
    check("tminus copy from SQLite to PostgreSQL succeeds", copy.returncode == 0 and image_status == 200,
          (copy.stdout + copy.stderr).strip().replace("\n", " / ")[:300])
    again = subprocess.run([TMINUS, "copy", "--from", sqlite, "--to", target], capture_output=True, text=True)
    check("a second copy into the same database is refused, and says why", again.returncode != 0 and "already holds feeds" in again.stderr,
          again.stderr.strip().replace("\n", " / ")[:240])
    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    old, old_port = serve(sqlite, empty, token_file, log)
    new, new_port = serve(target, empty, token_file, log)
    differences = []
    served = 0
    paths = [f"/feeds/{slug}{suffix}" for slug in slugs for suffix in (".ics", ".json", "/countdown.ics", "")]
    paths += [f"/t/{created['secret']}/feeds/{private}{suffix}" for suffix in (".ics", ".json")] + ["/"]
    for path in paths:
        one, two = http(old_port, "GET", path), http(new_port, "GET", path)
        served += one[0] == 200
        # Private feeds are 404 without their token, on both.
        if (one[0], one[2], one[1].get("etag")) != (two[0], two[2], two[1].get("etag")):
            differences.append(f"{path}: {one[0]}/{two[0]} {one[1].get('etag')}/{two[1].get('etag')}")
    image = json.loads(admin(new_port, "GET", f"/api/countdowns/{first}")[2]).get("image", "")
    image_bytes = http(new_port, "GET", urllib.parse.urlsplit(image).path)[2] if image else b""
    check("both stores serve the same bytes and ETags for every output of every copied feed", not differences and served >= len(slugs) * 3,
          f"{len(paths)} outputs compared ({served} served, the rest 404 on both); different: {differences[:3]}")
    check("the copied image and token work on PostgreSQL", image_bytes == png, f"image {len(image_bytes)} bytes")
    for process in (old, new):
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)


def main():
    if not os.path.exists(TMINUS):
        raise SystemExit("replicas: build tminus first (make test-postgres does)")
    work = tempfile.mkdtemp(prefix="tminus-replicas-")
    try:
        asyncio.run(scenarios(work))
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if all(results):
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"replicas: logs kept in {work}")
    passed = sum(results)
    print(f"replicas: {passed} passed, {len(results) - passed} failed")
    return 0 if results and all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
