#!/usr/bin/env python3
"""The replica section of `make bench`: SQLite against PostgreSQL, and one
replica against two behind nginx, in one run, with wrk on loopback.

Run beside a throwaway PostgreSQL (Tests/postgres/cluster.sh does that; it
sets TMINUS_TEST_POSTGRES). On a generated 500-event feed it measures requests
per second and p99 for the calendar (.ics) and the JSON:
  - one replica on SQLite and one on PostgreSQL, each hit directly;
  - nginx in front of one PostgreSQL replica, then of two.
Neither store is read on the hot path, so the first pair should match; on a
2-core machine two replicas share the same two cores with nginx and wrk, so
they cannot double the throughput.

Usage: replicas.py ROOT   (the release binary must be built; `make bench` does that)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serving  # noqa: E402  (wrk, start, wait_ready, free_port, stop_all)

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
TMINUS = os.path.join(ROOT, ".build/release/tminus")
BASE = os.environ.get("TMINUS_TEST_POSTGRES")


def database(name):
    subprocess.run(["psql", BASE, "-q", "-c", f"DROP DATABASE IF EXISTS {name}", "-c", f"CREATE DATABASE {name}"],
                   check=True, capture_output=True)
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(BASE)._replace(path="/" + name))


def calendar(count):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tminus bench//EN"]
    for i in range(count):
        lines += ["BEGIN:VEVENT", f"UID:bench-{i}@replicas", "DTSTAMP:20260101T000000Z", f"SUMMARY:Event {i}",
                  f"DTSTART;VALUE=DATE:2027{(i % 12) + 1:02d}{(i % 28) + 1:02d}"]
        if i % 5 == 0:
            lines.append("RRULE:FREQ=YEARLY")
        lines.append("END:VEVENT")
    return ("\r\n".join(lines + ["END:VCALENDAR"]) + "\r\n").encode()


def main():
    if not BASE:
        print("replica bench: skipped, no PostgreSQL (run it through Tests/postgres/cluster.sh; make bench does)")
        return 0
    if not shutil.which("wrk") or not shutil.which("nginx"):
        print("replica bench: skipped, wrk or nginx is not installed (make bench installs them)")
        return 0
    work = tempfile.mkdtemp(prefix="tminus-replica-bench-")
    os.chmod(work, 0o755)
    try:
        return run(work)
    finally:
        serving.stop_all()
        shutil.rmtree(work, ignore_errors=True)


def replica(db, work, name, token_file):
    port = serving.free_port()
    process = serving.start([TMINUS, "serve", "--port", str(port), "--db", db, "--admin-token-file", token_file, "--log-level", "warning"],
                            os.path.join(work, f"{name}.log"))
    serving.wait_ready(f"http://127.0.0.1:{port}/healthz", process)
    return port


def nginx(work, name, ports):
    prefix = os.path.join(work, name)
    os.makedirs(os.path.join(prefix, "logs"), exist_ok=True)
    port = serving.free_port()
    servers = "\n".join(f"    server 127.0.0.1:{p};" for p in ports)
    with open(os.path.join(prefix, "nginx.conf"), "w") as handle:
        handle.write(f"""worker_processes 1;
error_log {prefix}/logs/error.log;
pid {prefix}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  upstream tminus {{
{servers}
    keepalive 64;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{ proxy_pass http://tminus; proxy_http_version 1.1; proxy_set_header Connection ""; }}
  }}
}}
""")
    process = serving.start(["nginx", "-p", prefix, "-c", os.path.join(prefix, "nginx.conf"), "-g", "daemon off;"],
                            os.path.join(prefix, "nginx.out"))
    serving.wait_ready(f"http://127.0.0.1:{port}/healthz", process)
    return port


def run(work):
    source = os.path.join(work, "bench.ics")
    with open(source, "wb") as handle:
        handle.write(calendar(500))
    token_file = os.path.join(work, "admin-token")
    with open(token_file, "w") as handle:
        handle.write("bench-admin-token-0123456789abcdef")
    os.chmod(token_file, 0o600)
    sqlite = os.path.join(work, "bench.sqlite")
    subprocess.run([TMINUS, "import", source, "--feed", "bench", "--db", sqlite], check=True, stdout=subprocess.DEVNULL)
    postgres = database("tminus_bench")
    subprocess.run([TMINUS, "copy", "--from", sqlite, "--to", postgres], check=True, capture_output=True)
    on_sqlite = replica(sqlite, work, "sqlite", token_file)
    first = replica(postgres, work, "postgres-a", token_file)
    second = replica(postgres, work, "postgres-b", token_file)
    one = nginx(work, "nginx-one", [first])
    two = nginx(work, "nginx-two", [first, second])
    rows = [("SQLite, one replica, direct", on_sqlite), ("PostgreSQL, one replica, direct", first),
            ("nginx → one PostgreSQL replica", one), ("nginx → two PostgreSQL replicas", two)]
    print(f"\nreplicas, release build, wrk -c{serving.CONNECTIONS} -d{serving.DURATION}s on loopback (req/s, p99 ms), a 500-event feed")
    print(f"{'':34} {'.ics':>18} {'.json':>18}")
    results = {}
    for label, port in rows:
        cells = []
        for path in ("/feeds/bench.ics", "/feeds/bench.json"):
            result = serving.wrk(f"http://127.0.0.1:{port}{path}")
            results[(label, path)] = result
            cells.append(f"{result['rps']:>9,.0f} {result['p99'] or 0:>7.1f}" + (" !" if result["bad"] else "  "))
        print(f"{label:34} {cells[0]:>18} {cells[1]:>18}")
    sqlite_rps = results[("SQLite, one replica, direct", "/feeds/bench.ics")]["rps"]
    postgres_rps = results[("PostgreSQL, one replica, direct", "/feeds/bench.ics")]["rps"]
    print(f"PostgreSQL/SQLite, one replica, .ics: {postgres_rps / sqlite_rps:.2f} (neither reads its store per request; "
          "about 1 is the target)" if sqlite_rps else "")
    print("two replicas on two cores share those cores with nginx and wrk: they cannot double the throughput here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
