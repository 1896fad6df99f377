/// The page's stylesheet and script, served from /assets so that the
/// Content-Security-Policy can forbid inline scripts.
package enum Assets {
    /// Colours pass WCAG AA in light and dark mode (`make browser` runs axe on both).
    package static let css = """
        :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
                --bg: #ffffff; --fg: #1c1c1e; --muted: #545458; --panel: #f2f2f7; --line: #d1d1d6; --accent: #0055cc; --accent-ink: #ffffff; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #121214; --fg: #f2f2f7; --muted: #b0b0b8; --panel: #1e1e22; --line: #3a3a3c; --accent: #6ab0ff; --accent-ink: #0b0b0d; }
        }
        body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; background: var(--bg); color: var(--fg); }
        a { color: var(--accent); }
        h1 { margin: .2rem 0; font-size: 2rem; }
        .crumbs a, footer { color: var(--muted); font-size: .9rem; }
        .description { color: var(--muted); margin: .2rem 0 1rem; }
        .subscribe { display: flex; flex-wrap: wrap; gap: .5rem; margin-bottom: 1.5rem; }
        .tune { margin-bottom: 1.5rem; max-width: 40rem; }
        .tune summary { cursor: pointer; font-weight: 600; }
        .tune-form { display: grid; gap: .5rem; margin: .75rem 0; }
        .tune-form label { display: grid; gap: .2rem; }
        .tune-form input, .tune-form select { font: inherit; padding: .35rem; max-width: 100%; box-sizing: border-box; }
        .tuned-link { display: block; overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: .9rem; }
        .button { display: inline-block; padding: .55rem .9rem; border-radius: 999px; background: var(--accent); color: var(--accent-ink); text-decoration: none; font-weight: 600; font-size: .9rem; }
        .button.secondary { background: transparent; color: var(--accent); border: 1px solid var(--accent); }
        .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); gap: 1.25rem; }
        nav.more { text-align: center; margin: 1.5rem 0; }
        .card { text-align: center; padding: 1rem .5rem 1.2rem; border-radius: 1.5rem; background: var(--panel); }
        .circle { position: relative; overflow: hidden; width: 10rem; height: 10rem; margin: 0 auto .8rem; border-radius: 50%;
                  display: flex; flex-direction: column; align-items: center; justify-content: center;
                  background: linear-gradient(135deg, var(--from), var(--to)); color: var(--ink); }
        .circle .photo { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; opacity: .55; }
        .number { position: relative; font-size: 2.8rem; font-weight: 700; line-height: 1; max-width: 8.5rem; overflow-wrap: anywhere; text-align: center; }
        .number.len-medium { font-size: 1.9rem; }
        .number.len-long { font-size: 1.3rem; }
        .unit { position: relative; font-size: 1.1rem; font-weight: 500; }
        .card h2 { font-size: 1.1rem; margin: .2rem 0; }
        .card time { color: var(--muted); }
        .progress { height: .4rem; margin: .5rem 1.2rem 0; border-radius: 999px; background: var(--line); overflow: hidden; }
        .progress span { display: block; height: 100%; background: linear-gradient(90deg, var(--from), var(--to)); }
        .card .svg { display: block; margin-top: .4rem; font-size: .8rem; color: var(--muted); }
        .state-past .circle { filter: grayscale(.7); }
        .feeds { list-style: none; padding: 0; }
        .feed { display: flex; flex-wrap: wrap; align-items: center; gap: .8rem; padding: .8rem 0; border-bottom: 1px solid var(--line); }
        .feed .name { font-size: 1.2rem; font-weight: 600; flex: 1; }
        .feed .count { color: var(--muted); }
        """

    /// The tab icon of every page (a browser asks for one; a 404 is a console error).
    package static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#FF3B30"/><stop offset="1" stop-color="#FF9500"/></linearGradient></defs><circle cx="32" cy="32" r="30" fill="url(#g)"/><text x="32" y="42" text-anchor="middle" font-family="system-ui, sans-serif" font-size="28" font-weight="700" fill="#fff">T</text></svg>
        """

    /// Recounts each live card in the viewer's zone with the same rules as the
    /// server: calendar days, then months past 99 days, years past 12 months.
    package static let js = """
        "use strict";
        (function () {
          function startOfDay(d) { return new Date(d.getFullYear(), d.getMonth(), d.getDate()); }
          function targetDay(start) {
            if (/^\\d{4}-\\d{2}-\\d{2}$/.test(start)) { var p = start.split("-"); return new Date(+p[0], +p[1] - 1, +p[2]); }
            return startOfDay(new Date(start));
          }
          // Same rule as the server: the 31st clamps to shorter months.
          function addMonths(a, m) {
            var last = new Date(a.getFullYear(), a.getMonth() + m + 1, 0).getDate();
            return new Date(a.getFullYear(), a.getMonth() + m, Math.min(a.getDate(), last));
          }
          function monthsBetween(a, b) {
            var m = (b.getFullYear() - a.getFullYear()) * 12 + b.getMonth() - a.getMonth();
            while (m > 0 && addMonths(a, m) > b) m -= 1;
            return Math.max(0, m);
          }
          // The page's unit words by plural category (FeedPage puts them on
          // main.cards, the web app on its preview card), chosen with the
          // browser's CLDR rules for the page's language.
          var holder = document.querySelector("[data-words]");
          var words = holder ? JSON.parse(holder.dataset.words) : null;
          var rules = null;
          try { rules = new Intl.PluralRules(document.documentElement.lang || "en"); } catch (e) { rules = null; }
          function plural(n, word) {
            if (!words) return word + (n === 1 ? "" : "s");
            var forms = words[word.toLowerCase()] || {};
            return forms[rules ? rules.select(n) : "other"] || forms.other || word;
          }
          // What a card shows for a target day (YYYY-MM-DD or an ISO instant) in
          // `unit`, counted from today in the viewer's zone; null once it is past.
          // The web app's live preview uses it too (window.tminus.face).
          function face(start, unit) {
            var today = startOfDay(new Date());
            var target = targetDay(start);
            var days = Math.round((target - today) / 86400000);
            if (days < 0) return null;
            if (days === 0) return { number: words ? words.today.other : "Today", unit: "" };
            var months = monthsBetween(today, target), n = days, word = "Day";
            if (unit === "weeks") { n = Math.floor(days / 7); word = "Week"; }
            else if (unit === "months" || (unit === "dynamic" && days > 99 && months <= 12)) { n = months; word = "Month"; }
            else if (unit === "years" || (unit === "dynamic" && days > 99)) { n = Math.floor(months / 12); word = "Year"; }
            return { number: String(n), unit: plural(n, word) };
          }
          window.tminus = { face: face };
          function update() {
            document.querySelectorAll("article.card[data-live='1']").forEach(function (card) {
              var unit = card.dataset.unit;
              if (unit === "detailed") return;
              var shown = face(card.dataset.start, unit);
              if (!shown) return;
              card.querySelector(".number").textContent = shown.number;
              card.querySelector(".unit").textContent = shown.unit;
            });
          }
          update();
          setInterval(update, 60000);
          // The link builder (issue #39): each field becomes a parameter of the
          // calendar links; an empty field leaves the feed's own setting.
          var tune = document.querySelector(".tune");
          if (tune) {
            tune.hidden = false;
            var form = tune.querySelector("form");
            var build = function () {
              var query = [];
              form.querySelectorAll("input, select").forEach(function (field) {
                var value = field.value.trim();
                if (!value) { return; }
                if (field.name === "category" || field.name === "exclude-category") {
                  value.split(",").forEach(function (name) { name = name.trim(); if (name) { query.push(field.name + "=" + encodeURIComponent(name)); } });
                  return;
                }
                if (field.name === "alarm" && value === "none") { query.push("alarms=none"); return; }
                if (field.dataset.sign) { value = field.dataset.sign + Math.abs(parseInt(value, 10) || 0) + "d"; }
                query.push(field.name + "=" + encodeURIComponent(value));
              });
              var suffix = query.length ? "?" + query.join("&") : "";
              var ics = tune.dataset.ics + suffix;
              tune.querySelector("[data-tuned=text]").textContent = ics;
              tune.querySelector("[data-tuned=webcal]").href = ics.replace(/^https?:/, "webcal:");
              tune.querySelector("[data-tuned=countdown]").href = tune.dataset.countdown + suffix;
            };
            form.addEventListener("input", build);
            form.addEventListener("change", build);
            form.addEventListener("submit", function (event) { event.preventDefault(); build(); });
          }
        })();
        """
}
