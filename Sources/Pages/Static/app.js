"use strict";
// tminus web app: progressive enhancement only. Every form works without this
// script; it adds the live card preview, shows only the repeat fields that
// apply, reads custom rules aloud as they are typed, and takes dropped files.
(function () {
  document.documentElement.classList.add("js");

  function $(id) { return document.getElementById(id); }

  // Repeat picker: show the sub-fields of the chosen repeat only.
  var repeat = $("repeat");
  function showRepeatFields() {
    document.querySelectorAll("[data-for-repeat]").forEach(function (box) {
      box.hidden = box.dataset.forRepeat !== repeat.value;
    });
  }
  if (repeat) { repeat.addEventListener("change", showRepeatFields); showRepeatFields(); }

  // A custom rule, read aloud by the server as it is typed.
  var rule = $("rrule"), reading = $("rule-reading"), timer = null;
  function readRule() {
    if (!rule.value.trim()) { reading.textContent = ""; return; }
    var url = "/app/describe-rule?rrule=" + encodeURIComponent(rule.value.trim()) + "&date=" + encodeURIComponent(($("date") || {}).value || "");
    fetch(url, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.text() : ""; })
      .then(function (text) { reading.textContent = text; }).catch(function () {});
  }
  if (rule && reading) {
    rule.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(readRule, 250); });
  }

  // Live preview: the same face the public page and the SVG card show.
  var card = $("preview");
  function updatePreview() {
    if (!card) return;
    var useColors = $("useColors");
    if (useColors && useColors.checked) {
      card.style.setProperty("--from", $("color1").value);
      card.style.setProperty("--to", $("color2").value);
      card.style.setProperty("--ink", $("textColor").value);
    }
    var title = $("title").value || "…";
    card.querySelector(".preview-title").textContent = title.replace("{n}", "n");
    var date = $("date").value, time = $("time").value;
    var number = card.querySelector(".number"), unit = card.querySelector(".unit");
    var up = $("direction") && $("direction").value === "up";
    if (date && window.tminus && !up) {
      var shown = window.tminus.face(time ? date + "T" + time : date, $("unit").value);
      if (shown) {
        number.textContent = shown.number; unit.textContent = shown.unit;
        number.classList.toggle("word", !/^[0-9]+$/.test(shown.number));
      }
    }
    var dateLine = card.querySelector(".preview-date");
    if (date) dateLine.textContent = new Date(date + "T12:00:00").toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short", year: "numeric" });
    var url = $("imageURL");
    if (url && /^https:\/\//.test(url.value)) setPhoto(url.value);
  }
  function setPhoto(src) {
    var circle = card.querySelector(".circle"), photo = circle.querySelector(".photo");
    if (!photo) { photo = document.createElement("img"); photo.className = "photo"; photo.alt = ""; circle.insertBefore(photo, circle.firstChild); }
    photo.src = src;
  }
  var form = $("countdown-form");
  if (form && card) {
    form.addEventListener("input", updatePreview);
    form.addEventListener("change", updatePreview);
    var image = $("image");
    if (image) image.addEventListener("change", function () {
      if (image.files && image.files[0]) setPhoto(URL.createObjectURL(image.files[0]));
    });
    updatePreview();
    var field = form.dataset.errorField && $(form.dataset.errorField);
    if (field) { field.setAttribute("aria-invalid", "true"); field.focus(); }
  }

  // Drag and drop onto a file field's box.
  document.querySelectorAll(".drop").forEach(function (drop) {
    var input = drop.querySelector("input[type=file]");
    ["dragenter", "dragover"].forEach(function (name) {
      drop.addEventListener(name, function (event) { event.preventDefault(); drop.classList.add("over"); });
    });
    ["dragleave", "drop"].forEach(function (name) {
      drop.addEventListener(name, function () { drop.classList.remove("over"); });
    });
    drop.addEventListener("drop", function (event) {
      event.preventDefault();
      if (!event.dataTransfer || !event.dataTransfer.files.length) return;
      input.files = event.dataTransfer.files;
      input.dispatchEvent(new Event("change"));
    });
  });
  // The focus timer keeps time from the server's instants (data-ends, and
  // the server's now to correct this device's clock), never from its own
  // ticks: a reload, or another device, shows the same time left.
  var focusTimer = $("focus-timer");
  if (focusTimer) {
    var endsAt = Date.parse(focusTimer.getAttribute("data-ends"));
    var skew = Date.parse(focusTimer.getAttribute("data-now")) - Date.now();
    var phaseSeconds = parseInt(focusTimer.getAttribute("data-phase-seconds"), 10) || 0;
    var countsUp = focusTimer.getAttribute("data-up") === "1";
    var paused = focusTimer.getAttribute("data-paused") === "1";
    var told = false;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    var show = function (seconds) {
      seconds = Math.max(0, Math.round(seconds));
      var h = Math.floor(seconds / 3600), m = Math.floor(seconds % 3600 / 60), s = seconds % 60;
      return (h ? h + ":" + two(m) : two(m)) + ":" + two(s);
    };
    var tick = function () {
      if (paused) return;
      var left = (endsAt - (Date.now() + skew)) / 1000;
      focusTimer.textContent = show(countsUp ? phaseSeconds - Math.max(0, left) : left);
      if (left <= 0 && !told) {
        told = true;
        if ("Notification" in window && Notification.permission === "granted") {
          try { new Notification(focusTimer.getAttribute("data-notify")); } catch (e) {}
        }
        // The server moves a Pomodoro on to its next phase, or keeps the finished session.
        setTimeout(function () { window.location.reload(); }, 1500);
      }
    };
    tick();
    setInterval(tick, 1000);
  }
  // Asked once, when a session starts: a notification at the end of each period.
  var focusStart = $("focus-start");
  if (focusStart && "Notification" in window && Notification.permission === "default") {
    focusStart.addEventListener("submit", function () { try { Notification.requestPermission(); } catch (e) {} });
  }
})();
