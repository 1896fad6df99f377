#!/usr/bin/env python3
"""An independent CalDAV compatibility run (PyPI's caldav-server-tester)
against tminus, Radicale and Xandikos, in the same run.

Usage: caldav_compat.py TMINUS_URL LOGIN APP_PASSWORD ARTIFACTS_DIR

Starts Radicale (Debian) and Xandikos (PyPI) on loopback, runs the tester
against each of the three, writes each report to ARTIFACTS_DIR, prints the
share of fully supported features, and checks tminus's: no broken feature,
and a share at least the better of the other two's. Prints ok:/FAIL: lines.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter

URL, LOGIN, PASSWORD, ARTIFACTS = sys.argv[1:5]
BIN = os.path.dirname(sys.executable)
TESTER = os.path.join(BIN, "caldav-server-tester")
failures = 0


def check(what, condition, detail=""):
    global failures
    print(f"ok: {what}" if condition else f"FAIL: {what} {detail}")
    failures += 0 if condition else 1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(url, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return True
        except urllib.error.HTTPError:
            return True
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.2)
    return False


def levels(name, url, login, password):
    """The tester's verdict on each feature, by feature."""
    report = os.path.join(ARTIFACTS, f"caldav-compat-{name}.txt")
    with open(report, "w") as out:
        subprocess.run([TESTER, "--caldav-url", url, "--caldav-username", login, "--caldav-password", password, "--format", "text", "--verbose"],
                       stdout=out, stderr=subprocess.DEVNULL, timeout=900)
    text = open(report).read()
    return dict(re.findall(r"^## (\S+)\nFeature support level found: (\S+)", text, re.MULTILINE))


def main():
    if not os.path.exists(TESTER):
        check("caldav-server-tester is installed (make interop installs it)", False)
        return 1
    work = tempfile.mkdtemp(prefix="tminus-caldav-compat-")
    servers = []
    results = {"tminus": levels("tminus", URL, LOGIN, PASSWORD)}
    try:
        if shutil.which("radicale"):
            port = free_port()
            os.makedirs(f"{work}/radicale")
            with open(f"{work}/radicale/users", "w") as users:
                users.write("anna:radicale-password\n")
            with open(f"{work}/radicale/config", "w") as config:
                config.write(f"[server]\nhosts = 127.0.0.1:{port}\n[auth]\ntype = htpasswd\nhtpasswd_filename = {work}/radicale/users\n"
                             f"htpasswd_encryption = plain\n[storage]\nfilesystem_folder = {work}/radicale/collections\n[rights]\ntype = owner_only\n")
            servers.append(subprocess.Popen(["radicale", "--config", f"{work}/radicale/config"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            if wait(f"http://127.0.0.1:{port}/"):
                results["radicale"] = levels("radicale", f"http://127.0.0.1:{port}/", "anna", "radicale-password")
        xandikos = os.path.join(BIN, "xandikos")
        if os.path.exists(xandikos):
            port = free_port()
            servers.append(subprocess.Popen([xandikos, "--defaults", "-d", f"{work}/xandikos", "-l", "127.0.0.1", "-p", str(port)],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            if wait(f"http://127.0.0.1:{port}/"):
                results["xandikos"] = levels("xandikos", f"http://127.0.0.1:{port}/", "user", "unused")
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)

    shares = {}
    for name, found in results.items():
        counts = Counter(found.values())
        shares[name] = counts["full"] / max(1, len(found))
        print(f"  {name:<9} {counts['full']:3d} of {len(found):3d} fully supported ({shares[name]:.0%}); "
              + ", ".join(f"{level} {n}" for level, n in sorted(counts.items()) if level != "full"))
    broken = sorted(feature for feature, level in results["tminus"].items() if level == "broken")
    check("the compatibility run finds no broken feature in tminus", not broken, broken)
    others = [shares[name] for name in ("radicale", "xandikos") if name in shares]
    check("tminus supports at least as high a share of features fully as the better of Radicale and Xandikos",
          len(others) == 2 and shares["tminus"] >= max(others), shares)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
