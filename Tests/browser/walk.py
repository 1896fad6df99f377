#!/usr/bin/env python3
"""make browser: the web app in a real Chromium (Debian's chromium + chromium-driver,
driven by Selenium), against a live `tminus serve` on a loopback port.

It walks what a person does without a terminal: sign in; create a feed; add a
countdown with a gradient and an image and see it on the public page and in the
SVG card; edit it and watch the exported .ics change with SEQUENCE raised; import
a file with a broken line and read the error; make a token link and fetch the
private feed through it; tick off a task and check the counts in the JSON; open
the timeline and the statistics.

On every page it runs axe-core (PyPI's axe-selenium-python) and fails on any
violation of impact serious or critical, and fails on any console error
(CSP reports are console errors). It first proves that both checks can fail, on
a page it breaks on purpose. Screenshots at 1280 and 360 px, light and dark, go
to artifacts/browser/ (CI artifacts, not committed).

Ends with `browser: N passed, M failed`; the exit code is 1 when anything failed.
"""
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import threading
import zlib
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import icalendar
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
TMINUS = os.environ.get("TMINUS", os.path.join(ROOT, ".build/debug/tminus"))
ART = os.path.join(ROOT, "artifacts/browser")
PASSWORD = "correct horse battery staple"
passed = failed = 0


def check(condition, message):
    global passed, failed
    if condition:
        passed += 1
        print("ok:", message)
    else:
        failed += 1
        print("FAIL:", message)
    return condition


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class QuietHandler(SimpleHTTPRequestHandler):
    """Serves a folder without a line per request on the walk's output."""
    def log_message(self, *args):
        pass


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode("utf-8", "replace")


def staleness_of(element):
    """True once `element` has left the document (the next page loaded). Chromium
    sometimes reports a detached node as an inspector error, not as a stale
    reference: both mean the same here."""
    def gone(_):
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return True
    return gone


def png(width, height, rgb):
    """A small solid PNG, written by hand so the test needs no imaging library."""
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


class Walk:
    def __init__(self, driver, base):
        self.driver = driver
        self.base = base
        self.axe = Axe(driver)
        self.pages_checked = set()

    def open(self, path):
        self.driver.get(self.base + path)
        return self.driver

    def by_id(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def too_wide(self):
        """The innermost elements that reach past the window's right edge, to name in a failure."""
        names = self.driver.execute_script(
            "var w = window.innerWidth; return Array.from(document.querySelectorAll('body *')).filter(function (e) {"
            " var r = e.getBoundingClientRect(); return r.right > w + 1 && !Array.from(e.children).some(function (c) {"
            " return c.getBoundingClientRect().right > w + 1; }); }).slice(0, 4).map(function (e) {"
            " return e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : '') + ' “'"
            " + (e.textContent || '').trim().slice(0, 40) + '”'; })")
        return f"; {', '.join(names)}" if names else ""

    def fill(self, element_id, text):
        field = self.by_id(element_id)
        field.clear()
        field.send_keys(text)

    def set_value(self, element_id, value):
        """Inputs Selenium cannot type into portably (type=date, time, color)."""
        self.driver.execute_script(
            "var e = document.getElementById(arguments[0]); e.value = arguments[1];"
            "e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));",
            element_id, value)

    def submit(self, form_selector="form.stack"):
        """Submits and waits for the next page to load."""
        old = self.driver.find_element(By.TAG_NAME, "html")
        self.driver.find_element(By.CSS_SELECTOR, form_selector + " button[type=submit]").click()
        WebDriverWait(self.driver, 15).until(staleness_of(old))

    def expect_refusal(self, status):
        """A form refused on purpose answers with its 4xx status, which Chromium
        logs as a failed load of the page itself: that one entry is expected;
        anything else in the console is still an error."""
        entries = self.driver.get_log("browser")
        expected = [e for e in entries if e["level"] == "SEVERE" and f"status of {status}" in e["message"]
                    and e["message"].startswith(self.driver.current_url.split("#")[0])]
        check(len(expected) == 1, f"the refused form answered {status}")
        for entry in entries:
            if entry not in expected and entry["level"] == "SEVERE":
                print("   console:", entry["message"][:300])
                check(False, "no other console error after a refused form")

    def console_errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def audit(self, name):
        """axe (serious and critical fail) and the console (any error fails) on the current page."""
        self.axe.inject()
        results = self.axe.run()
        bad = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        for violation in bad:
            print("   axe:", violation["id"], violation["impact"], violation["help"], [n["target"] for n in violation["nodes"]][:3])
        check(not bad, f"{name}: no serious or critical accessibility violation")
        errors = self.console_errors()
        for error in errors:
            print("   console:", error["message"][:300])
        check(not errors, f"{name}: no console error or CSP report")
        self.pages_checked.add(name)

    def screenshots(self, name):
        """1280 and 360 px wide, light and dark."""
        for scheme in ("light", "dark"):
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for width in (1280, 360):
                self.driver.set_window_size(width, 900)
                height = self.driver.execute_script("return document.documentElement.scrollHeight")
                self.driver.set_window_size(width, min(max(height, 600), 4000))
                self.driver.save_screenshot(os.path.join(ART, f"{name}-{width}-{scheme}.png"))
            if scheme == "dark":
                # Dark mode gets its own contrast check.
                self.axe.inject()
                bad = [v for v in self.axe.run()["violations"] if v.get("impact") in ("serious", "critical")]
                for violation in bad:
                    print("   axe (dark):", violation["id"], violation["help"], [n["target"] for n in violation["nodes"]][:3])
                check(not bad, f"{name}: no serious or critical violation in dark mode")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        self.driver.set_window_size(1280, 900)


def prove_the_checks_can_fail(walk):
    """Breaks a page on purpose: axe and the console check must both notice."""
    walk.open("/app/signin")
    walk.driver.get_log("browser")
    walk.driver.execute_script(
        "var i = document.createElement('input'); i.type = 'text'; document.body.appendChild(i);"
        "var b = document.createElement('button'); document.body.appendChild(b);"
        "var p = document.createElement('p'); p.textContent = 'faint'; p.style.color = '#eeeeee'; p.style.background = '#ffffff'; document.body.appendChild(p);"
        "console.error('tminus browser self-test: a console error');")
    walk.axe.inject()
    serious = [v["id"] for v in walk.axe.run()["violations"] if v.get("impact") in ("serious", "critical")]
    check({"label", "button-name", "color-contrast"} <= set(serious), f"self-test: axe reports a broken page ({', '.join(sorted(serious))})")
    check(any("self-test" in e["message"] for e in walk.console_errors()), "self-test: the console check sees an error")


def main():
    os.makedirs(ART, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tminus-browser-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = os.path.join(work, "tminus.sqlite")
    token_file = os.path.join(work, "admin-token")
    with open(token_file, "w") as f:
        f.write("browser-walk-admin-token-0123456789\n")
    os.chmod(token_file, 0o600)
    # The first administrator, as a newcomer makes them from the terminal.
    subprocess.run([TMINUS, "password", "owner", "--stdin", "--db", db], input=PASSWORD + "\n", text=True, check=True, capture_output=True)
    log = open(os.path.join(ART, "server.log"), "w")
    server = subprocess.Popen([TMINUS, "serve", "--port", str(port), "--db", db, "--feeds", os.path.join(ROOT, "feeds"),
                               "--admin-token-file", token_file, "--base-url", base, "--allow-private-sources"],
                              stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    # A school portal on loopback: examples/ served over HTTP, for a source kept up to date with its own rules.
    portal = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=os.path.join(ROOT, "examples")))
    threading.Thread(target=portal.serve_forever, daemon=True).start()
    driver = None
    try:
        for _ in range(100):
            try:
                if fetch(base + "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.2)
        check(fetch(base + "/healthz")[0] == 200, f"tminus serves on {base} (pid {server.pid})")

        options = Options()
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-GB"):
            options.add_argument(argument)
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        driver.implicitly_wait(3)
        walk = Walk(driver, base)

        prove_the_checks_can_fail(walk)
        driver.delete_all_cookies()

        # Sign in.
        walk.open("/app")
        check(driver.current_url.endswith("/app/signin"), "an anonymous visit goes to the sign-in page")
        walk.audit("sign-in")
        walk.screenshots("signin")
        walk.fill("login", "owner")
        walk.fill("password", "wrong password")
        walk.submit()
        check("not right" in driver.page_source, "a wrong password is refused with a message")
        walk.expect_refusal(401)
        walk.fill("login", "owner")
        walk.fill("password", PASSWORD)
        walk.submit()
        check(driver.current_url.rstrip("/").endswith("/app") and "Feeds" in driver.title, "the right password signs in")
        session = driver.get_cookie("tminus_session")
        check(session and session.get("httpOnly") and session.get("sameSite") == "Strict", "the session cookie is HttpOnly and SameSite=Strict")
        walk.audit("feeds")
        walk.screenshots("feeds")

        # Create a feed.
        walk.open("/app/feeds/new")
        walk.audit("new feed")
        walk.fill("name", "Summer 2027")
        walk.fill("timeZone", "Europe/Budapest")
        walk.by_id("isPublic").click()
        walk.submit()
        check(driver.current_url.endswith("/app/feeds/summer-2027"), "a new feed is made and shown")

        # A countdown with a gradient and an image; the live preview follows the form.
        walk.open("/app/feeds/summer-2027/countdowns/new")
        walk.fill("title", "Lake Balaton")
        walk.set_value("date", "2027-07-24")
        walk.by_id("useColors").click()
        walk.set_value("color1", "#ff3b30")
        walk.set_value("color2", "#5856d6")
        preview_title = driver.find_element(By.CSS_SELECTOR, "#preview .preview-title").text
        preview_from = driver.execute_script("return document.getElementById('preview').style.getPropertyValue('--from')")
        check(preview_title == "Lake Balaton" and preview_from.lower() == "#ff3b30", "the live preview shows the title and the gradient as they are typed")
        Select(walk.by_id("repeat")).select_by_value("custom")
        walk.fill("rrule", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR")
        time.sleep(0.8)
        check("Every 2 weeks on Monday and Friday" in walk.by_id("rule-reading").text, "a custom rule is read aloud next to it")
        Select(walk.by_id("repeat")).select_by_value("yearly")
        image = os.path.join(work, "lake.png")
        with open(image, "wb") as f:
            f.write(png(24, 24, (40, 120, 200)))
        walk.by_id("image").send_keys(image)
        walk.fill("categories", "Holiday")
        walk.audit("countdown form")
        walk.screenshots("countdown-form")
        walk.submit("#countdown-form")
        check("Saved “Lake Balaton”" in driver.page_source, "the countdown is saved")
        walk.audit("feed")
        walk.screenshots("feed")
        state = json.loads(fetch(base + "/feeds/summer-2027.json")[1])
        countdown = state["countdowns"][0]
        check(countdown["colors"]["gradient"] == ["#FF3B30", "#5856D6"] and countdown["image"] and countdown["repeats"] == "yearly",
              "the JSON has the gradient, the image and the repeat")
        walk.open("/feeds/summer-2027")
        check("Lake Balaton" in driver.page_source and "#FF3B30" in driver.page_source, "the public page shows the card with its gradient")
        image_url = driver.find_element(By.CSS_SELECTOR, ".card img.photo").get_attribute("src")
        check(driver.execute_script("return document.querySelector('.card img.photo').naturalWidth") == 24, f"the uploaded image shows on the public page ({image_url})")
        walk.audit("public page")
        walk.screenshots("public-page")
        status, svg = fetch(base + f"/feeds/summer-2027/{countdown['id']}.svg")
        check(status == 200 and "Lake Balaton" in svg and "#FF3B30" in svg, "the SVG card shows it")

        # Edit it: the export changes and SEQUENCE rises.
        before = fetch(base + "/feeds/summer-2027.ics")[1]
        walk.open(f"/app/countdowns/{countdown['id']}/edit")
        walk.fill("title", "Lake Balaton 🏖")
        walk.submit("#countdown-form")
        after = fetch(base + "/feeds/summer-2027.ics")[1]
        check("SEQUENCE:0" in before and "SEQUENCE:1" in after and "SUMMARY:Lake Balaton 🏖" in after, "an edit changes the export and raises SEQUENCE")

        # Issue #27: "Use my colours" left unticked means the palette's colours; the form refused to save (422).
        walk.open("/app/feeds/summer-2027/countdowns/new")
        walk.fill("title", "Plain day")
        walk.set_value("date", "2027-08-01")
        check(not walk.by_id("useColors").is_selected(), "'Use my colours' starts unticked")
        walk.submit("#countdown-form")
        check("Saved “Plain day”" in driver.page_source, "a countdown without its own colours is saved")
        plain = [c for c in json.loads(fetch(base + "/feeds/summer-2027.json")[1])["countdowns"] if c["title"] == "Plain day"]
        check(len(plain) == 1 and not plain[0]["colors"].get("gradient"), f"it has no colours of its own ({plain})")

        # Import a file with a broken line, strictly: the error names the line.
        broken = os.path.join(work, "broken.ics")
        with open(broken, "w", newline="") as f:
            f.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//browser//walk//EN\r\nBEGIN:VEVENT\r\nUID:broken@walk\r\n"
                    "DTSTAMP:20260101T000000Z\r\nSUMMARY:Broken\r\nDTSTART:2027x101T100000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        walk.open("/app/feeds/summer-2027/import")
        walk.by_id("file").send_keys(broken)
        walk.by_id("strict").click()
        walk.submit("#import-form")
        error = driver.find_element(By.CSS_SELECTOR, ".error").text
        check("Nothing was imported" in error and "line 8" in error and "DTSTART" in error, "a strict import shows the broken line and property")
        walk.expect_refusal(422)
        walk.audit("import error")
        walk.screenshots("import-error")

        # Make the feed private, then a token link that opens it.
        walk.open("/app/feeds/summer-2027/edit")
        walk.by_id("isPublic").click()
        walk.submit()
        check(fetch_status(base + "/feeds/summer-2027.ics") == 404, "a private feed is not served at its public address")
        walk.fill("token-label", "Anna’s phone")
        walk.submit("#tokens form.row-form")
        link = next(code.text for code in driver.find_elements(By.CSS_SELECTOR, ".new-token code") if code.text.startswith("http"))
        check(fetch(link)[0] == 200 and "Lake Balaton" in fetch(link)[1], "the token link opens the private feed")
        check(len(driver.find_elements(By.CSS_SELECTOR, ".new-token svg")) == 1, "the token link comes with a QR code")
        walk.audit("token made")
        walk.open("/app/feeds/summer-2027")
        check(link not in driver.page_source, "the token is shown only once")

        # The rules' preview: the private bills feed leaves out its income.
        walk.open("/app/feeds/bills/rules")
        check("sources[0].exclude.categories" in driver.page_source and "Payday" in driver.page_source,
              "the rules' preview says which rule dropped the payday")
        walk.audit("rules preview")

        # A source kept up to date from the import page takes its own rules.
        portal_url = f"http://127.0.0.1:{portal.server_address[1]}/school-calendar.ics"
        walk.open("/app/feeds/summer-2027/import")
        walk.fill("url", portal_url)
        walk.by_id("keep").click()
        walk.submit("#import-form")
        check("Staff training day" in fetch(link)[1], "the portal's calendar is imported and kept up to date")
        walk.open("/app/feeds/summer-2027")
        rules_link = driver.find_element(By.CSS_SELECTOR, "#sources a[href*='/sources/rules?location=']")
        rules_link.click()
        WebDriverWait(driver, 10).until(lambda d: "/sources/rules" in d.current_url)
        walk.audit("a source's rules")
        walk.screenshots("source-rules")
        walk.fill("rules", "exlude:\n  status: [tentative]\n")
        walk.submit()
        check("exlude: is not a rule" in driver.find_element(By.CSS_SELECTOR, ".error").text, "a misspelt rule is refused and named")
        walk.expect_refusal(422)
        walk.fill("rules", "exclude:\n  status: [tentative]\nchange:\n  prefix: 'School: '\n")
        walk.submit()
        titles = fetch(link)[1]
        check("Rules saved" in driver.page_source and "with its own rules" in driver.page_source, "the rules are saved and the source says so")
        check("School: Maths Final" in titles and "Staff training day" not in titles,
              "the source was fetched again through its rules (prefixed, the tentative day gone)")
        walk.audit("rules saved")

        # Tick off a task: the counts in the JSON follow.
        walk.open("/app/feeds/tasks")
        counts_before = json.loads(fetch(base + "/feeds/tasks.json")[1])["tasks"]
        walk.open("/app/tasks")
        walk.audit("tasks")
        walk.screenshots("tasks")
        first = driver.find_element(By.CSS_SELECTOR, "li.task form button.tick")
        label = first.get_attribute("aria-label")
        old = driver.find_element(By.TAG_NAME, "html")
        first.click()
        WebDriverWait(driver, 15).until(staleness_of(old))
        check("Done:" in driver.page_source, f"a task is ticked off ({label})")
        tasks_feed = json.loads(fetch(base + "/feeds/tasks.json")[1])
        completed = [c for c in tasks_feed["countdowns"] if c["status"] == "completed"]
        check(len(completed) >= 1, "the JSON shows the task completed")
        check(set(tasks_feed["tasks"]) == {"overdue", "dueToday", "dueThisWeek"}, f"the JSON has task counts ({counts_before} before, {tasks_feed['tasks']} after)")
        check("STATUS:COMPLETED" in fetch(base + "/feeds/tasks.ics")[1], "the export carries STATUS:COMPLETED")

        # The timeline and the statistics.
        walk.open("/app/timeline?weeks=8")
        check(len(driver.find_elements(By.CSS_SELECTOR, "li.day.today")) == 1, "the timeline marks today")
        check(len(driver.find_elements(By.CSS_SELECTOR, "li.entry")) > 3, "the timeline lists entries across feeds")
        walk.audit("timeline")
        walk.screenshots("timeline")
        walk.open("/app/stats?period=year")
        check(len(driver.find_elements(By.CSS_SELECTOR, "svg.chart rect")) > 0, "the statistics draw a bar chart")
        walk.audit("statistics")
        walk.screenshots("statistics")

        # A finished countdown's word stays inside the public card's circle.
        walk.open("/feeds/tasks")
        overflow = driver.execute_script(
            "return Array.from(document.querySelectorAll('.card .number')).filter(function (n) {"
            " var c = n.parentElement.getBoundingClientRect(), r = n.getBoundingClientRect();"
            " return r.left < c.left - 1 || r.right > c.right + 1; }).map(function (n) { return n.textContent; })")
        check(not overflow, f"words on public cards stay inside the circle ({overflow or 'none overflow'})")
        walk.audit("public tasks page")
        walk.screenshots("public-tasks")

        # Other languages: the Arabic page reads right to left, and the script's
        # recount (on load, then every minute; Intl.PluralRules) writes the same
        # words the server wrote, in the page's language.
        # The script counts from the viewer's today, the server from the feed's
        # (Europe/Budapest): in the hour or two before midnight UTC they are a day apart,
        # so the viewer is put in the feed's zone for this comparison.
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Budapest"})
        for lang in ("ar", "pl", "ru"):
            served = re.findall(r'<span class="unit">([^<]*)</span>', fetch(base + f"/feeds/birthdays?lang={lang}")[1])
            walk.open(f"/feeds/birthdays?lang={lang}")
            WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
            shown = [u.get_attribute("textContent") for u in driver.find_elements(By.CSS_SELECTOR, ".card .unit")]
            latin = lang != "pl" and any(re.search("[A-Za-z]", u) for u in shown)
            check(shown == served and served and not latin,
                  f"{lang}: the script's recount keeps the server's words (shown {shown[:4]}, differing {[(a, b) for a, b in zip(shown, served) if a != b]})")
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
        check(driver.execute_script("return document.documentElement.dir") == "ltr", "the Russian page is left to right")
        walk.open("/feeds/birthdays?lang=ar")
        check(driver.execute_script("return document.documentElement.dir + ' ' + document.documentElement.lang") == "rtl ar",
              "the Arabic page is right to left")
        walk.audit("public page in Arabic")
        walk.screenshots("public-arabic")

        # People and spaces (issue #37), in two browsers: the owner makes a space and
        # a feed in it and an invitation link; a second browser opens the link, makes
        # an account, and finds the space's feed; the owner then sees the new member.
        walk.open("/app/spaces")
        walk.audit("spaces")
        walk.fill("space-name", "Family")
        walk.submit("form.stack")
        check(driver.current_url.endswith("/app/spaces/family"), "a space is made from the Spaces page")
        walk.audit("a space")
        walk.open("/app/feeds/new?space=family")
        check(Select(walk.by_id("space")).first_selected_option.get_attribute("value") == "family", "a new feed from a space's page belongs to it")
        walk.fill("name", "Family dates")
        walk.fill("timeZone", "Europe/Budapest")
        walk.submit("form.stack")
        check(driver.current_url.endswith("/app/feeds/family-dates"), "the space's feed is made")
        walk.open("/app/spaces/family")
        Select(walk.by_id("invite-role")).select_by_value("editor")
        walk.submit("form[action='/app/spaces/family/invite']")
        link = driver.find_element(By.CSS_SELECTOR, "code.link").text
        check("/app/join/" in link, "an invitation link is shown once")
        walk.audit("an invitation shown")
        other = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
        try:
            other.implicitly_wait(3)
            ben = Walk(other, base)
            ben.open(link[link.index("/app/join/"):])
            check("invited you to family as editor" in other.page_source, "the second browser opens the invitation")
            ben.audit("an invitation opened")
            ben.fill("login", "ben")
            ben.fill("name", "Ben")
            ben.fill("password", PASSWORD)
            ben.fill("confirm", PASSWORD)
            ben.submit("form.stack")
            check(other.current_url.rstrip("/").endswith("/app") and "Family dates" in other.page_source,
                  "Ben signs up through the link, and sees the space's feed")
            check("Signed in as Ben" in other.page_source, "the bar says who is signed in")
            # Ben, an editor, adds a countdown; Anna (the owner here) sees who added it.
            ben.open("/app/feeds/family-dates/countdowns/new")
            ben.fill("title", "Grandma's visit")
            ben.set_value("date", "2027-08-14")
            ben.submit("#countdown-form")
            check("Saved “Grandma's visit”" in other.page_source, "Ben adds a countdown to the space's feed")
            walk.open("/app/feeds/family-dates")
            check("added by ben" in driver.page_source, "the owner sees “added by ben” on the card")
            # Ben keeps a form open; the owner makes him a viewer.
            ben.open("/app/feeds/family-dates/countdowns/new")
            ben.fill("title", "Sneaky")
            ben.set_value("date", "2027-09-01")
            walk.open("/app/spaces/family")
            Select(walk.by_id("role-ben")).select_by_value("viewer")
            walk.submit("form[action='/app/spaces/family/members/ben']")
            ben.submit("#countdown-form")
            check("403" in other.title or "not allowed" in other.page_source.lower() or other.find_elements(By.CSS_SELECTOR, "p.error, .error"),
                  "the form Ben had open is refused once he is a viewer (403)")
            ben.expect_refusal(403)
            ben.open("/app/feeds/family-dates")
            check("Grandma" in other.page_source and "/countdowns/new" not in other.page_source and "/edit\"" not in other.page_source,
                  "as a viewer Ben reads the feed, and its edit buttons are gone")
            ben.audit("a feed as a viewer")
            # The owner removes Ben; his next request from the open page is refused.
            walk.open("/app/spaces/family")
            walk.submit("form[action='/app/spaces/family/members/ben/remove']")
            other.refresh()
            check("/countdowns/new" not in other.page_source and "Grandma" not in other.page_source,
                  "removed, Ben's next request from the open page finds no feed there")
            ben.expect_refusal(404)
        finally:
            other.quit()
        walk.open("/app/spaces/family")
        check("/members/ben" not in driver.page_source, "the owner sees Ben gone from the members")
        walk.open("/app/spaces/family/activity")
        check("ben added “Grandma's visit”" in driver.page_source, "the space's activity says who added what")
        walk.audit("a space's activity")
        walk.open("/app/spaces/family/board")
        walk.audit("a space's board")
        walk.open("/app/people")
        walk.audit("people")
        check("/app/people/ben/disable" in driver.page_source, "an administrator can disable the new person")
        walk.open("/app/account")
        walk.audit("your account")
        walk.open("/app/account/second-factor")
        check(driver.find_elements(By.CSS_SELECTOR, ".qr svg"), "turning on two-step sign-in shows a QR code")
        walk.audit("two-step sign-in")
        driver.set_window_size(360, 900)
        for path in ("/app/spaces/family", "/app/people", "/app/account", "/app/account/second-factor"):
            walk.open(path)
            wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(wide <= 1, f"en {path}: nothing wider than a 360 px screen ({wide} px over{walk.too_wide()})")
        driver.set_window_size(1280, 900)

        # Focus (issue #42): a 1-minute session. The timer moves; a reload shows the
        # same time left (it counts from the server's end, not the page's ticks); the
        # notification permission is granted and the end's notification is seen; a
        # second session is stopped; both are on the focus page's totals and in the
        # focus feed's calendar, read by icalendar.
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["notifications"]})
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
            "(function () { var Real = window.Notification; if (!Real) return;"
            " var Seen = function (title, options) { sessionStorage.setItem('tminus-notified', title);"
            "   try { return new Real(title, options); } catch (e) { return {}; } };"
            " Object.defineProperty(Seen, 'permission', { get: function () { return Real.permission; } });"
            " Seen.requestPermission = function () { return Real.requestPermission.apply(Real, arguments); };"
            " window.Notification = Seen; })();")})
        walk.open("/app/focus")
        walk.audit("focus")
        walk.fill("tag", "Maths")
        walk.set_value("minutes", "1")
        walk.submit("#focus-start")
        def left():
            text = walk.by_id("focus-timer").text
            minutes, seconds = text.split(":")[-2:]
            return int(minutes) * 60 + int(seconds)
        first = left()
        time.sleep(2.5)
        moved = left()
        check(first <= 60 and moved < first, f"the focus timer counts down ({first} s, then {moved} s)")
        driver.refresh()
        again = left()
        check(abs(again - moved) <= 2 and again < first, f"a reload shows the same time left ({moved} s before, {again} s after)")
        walk.audit("focus running")
        walk.screenshots("focus")
        WebDriverWait(driver, 90).until(lambda d: d.execute_script("return sessionStorage.getItem('tminus-notified')"))
        said = driver.execute_script("return sessionStorage.getItem('tminus-notified')")
        check("Maths" in said, f"the end of the period is notified ({said})")
        WebDriverWait(driver, 15).until(lambda d: d.find_elements(By.ID, "focus-start"))
        walk.fill("tag", "Reading")
        walk.submit("#focus-start")
        time.sleep(1.5)
        walk.submit("form[action='/app/focus/stop']")
        check("Stopped: Reading" in driver.page_source, "a session is stopped and what was done is kept")
        walk.open("/app/focus?period=day")
        rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "table.stats tbody th")]
        check(any("Maths" in row for row in rows) and any("Reading" in row for row in rows), f"the focus page adds both up ({rows})")
        check(len(driver.find_elements(By.CSS_SELECTOR, "svg.chart rect")) > 0, "the focus page draws its chart")
        walk.audit("focus totals")
        request = urllib.request.Request(base + "/api/feeds/focus/export", headers={"Authorization": "Bearer browser-walk-admin-token-0123456789"})
        with urllib.request.urlopen(request, timeout=10) as response:
            focus_calendar = icalendar.Calendar.from_ical(response.read())
        blocks = {str(e.get("CATEGORIES").cats[0]): str(e.get("SUMMARY")) for e in focus_calendar.walk("VEVENT") if e.get("CATEGORIES")}
        check(blocks.get("Maths", "").startswith("Focus: Maths — 1 min") and blocks.get("Reading", "").startswith("Focus: Reading — "),
              f"the focus feed's calendar holds both blocks, read by icalendar ({blocks})")
        driver.set_window_size(360, 900)
        walk.open("/app/focus")
        wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        check(wide <= 1, f"en /app/focus: nothing wider than a 360 px screen ({wide} px over{walk.too_wide()})")
        driver.set_window_size(1280, 900)

        # The app in German, Arabic (right to left) and Japanese, chosen with the
        # switch at the foot of the page and remembered: every page audited by axe,
        # none wider than a 360 px phone, and no English left on it.
        pages = ["/app", "/app/feeds/summer-2027", "/app/feeds/summer-2027/countdowns/new", "/app/feeds/summer-2027/edit",
                 "/app/feeds/summer-2027/import", "/app/feeds/bills/rules", "/app/feeds/summer-2027/delete", "/app/timeline",
                 "/app/tasks", "/app/stats?period=year", "/app/spaces", "/app/spaces/family", "/app/spaces/family/activity",
                 "/app/spaces/family/board", "/app/people", "/app/account", "/app/focus",
                 "/app/feeds/summer-2027/sources/rules?location=" + urllib.parse.quote(portal_url, safe="")]
        english_words = ("Add countdown", "Settings", "Private links", "Subscribe and share", "What and when", "Time zone",
                         "Import into", "Cancel", "Statistics", "Timeline", "Sign out", "Delete “", "Category", "Result")
        driver.set_window_size(360, 900)
        for path in ("/app/feeds/summer-2027", "/app/stats?period=year"):
            walk.open(path)
            wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            check(wide <= 1, f"en {path}: nothing wider than a 360 px screen ({wide} px over{walk.too_wide()})")
        driver.set_window_size(1280, 900)
        for lang, heading, direction in (("de", "Feeds", "ltr"), ("ar", "الخلاصات", "rtl"), ("ja", "フィード", "ltr")):
            walk.open("/app/timeline")
            Select(walk.by_id("language-switch")).select_by_value(lang)
            walk.submit("footer.language form")
            check(driver.current_url.endswith("/app/timeline"), f"{lang}: the switch comes back to the page it was used on")
            check(driver.execute_script("return document.documentElement.lang + ' ' + document.documentElement.dir") == f"{lang} {direction}",
                  f"{lang}: the page says its language and direction")
            remembered = driver.get_cookie("tminus_lang")
            check(remembered and remembered["value"] == lang and remembered.get("httpOnly"), f"{lang}: the choice is remembered in a cookie")
            for path in pages:
                walk.open(path)
                text = driver.find_element(By.TAG_NAME, "main").text + " " + driver.find_element(By.TAG_NAME, "nav").text
                left = [word for word in english_words if word in text]
                check(not left, f"{lang} {path}: no English left on the page ({left})")
                walk.audit(f"{path} in {lang}")
            walk.open("/app")
            check(driver.find_element(By.TAG_NAME, "h1").text == heading, f"{lang}: the feeds page is headed {heading}")
            driver.set_window_size(360, 900)
            for path in ("/app/feeds/summer-2027", "/app/feeds/summer-2027/countdowns/new", "/app/stats?period=year"):
                walk.open(path)
                wide = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                check(wide <= 1, f"{lang} {path}: nothing wider than a 360 px screen ({wide} px over{walk.too_wide()})")
            driver.set_window_size(1280, 900)
            if lang == "ar":
                walk.open("/app")
                brand, nav = (driver.find_element(By.CSS_SELECTOR, selector).rect for selector in (".bar .brand", ".bar nav"))
                check(brand["x"] > nav["x"], "ar: the bar is mirrored, the brand on the right")
            walk.open("/app/feeds/summer-2027")
            walk.screenshots(f"app-{lang}")
        walk.open("/app")
        Select(walk.by_id("language-switch")).select_by_value("en")
        walk.submit("footer.language form")
        check("Feeds" in driver.title, "the switch goes back to English")

        # Sign out.
        walk.open("/app")
        walk.submit("form.signout")
        check(driver.current_url.endswith("/app/signin"), "signing out goes back to the sign-in page")
        walk.open("/app/timeline")
        check(driver.current_url.endswith("/app/signin"), f"after signing out the app needs a password again (session cookie: {driver.get_cookie('tminus_session')})")
    except Exception as error:  # a crash of the walk is a failure, with what happened
        import traceback
        traceback.print_exc()
        check(False, f"the walk stopped: {type(error).__name__}: {error}")
        if driver:
            driver.save_screenshot(os.path.join(ART, "failure.png"))
    finally:
        if driver:
            driver.quit()
        portal.shutdown()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"browser: {passed} passed, {failed} failed (screenshots in {os.path.relpath(ART, ROOT)}/)")
    return 1 if failed else 0


def fetch_status(url):
    try:
        return fetch(url)[0]
    except urllib.error.HTTPError as error:
        return error.code


if __name__ == "__main__":
    sys.exit(main())
