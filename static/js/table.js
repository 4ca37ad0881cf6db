// The table. Everything is plain forms + htmx; this file only
// - keeps the discard (or pass) button's label in step with the chosen cards ("Discard 2" /
//   "Keep my hand"; "Pass 3 cards" / "Choose 3 cards (1 chosen)"), and a pass at three cards;
// - keeps the panels (<details> with an id) open or closed as the player left them, although
//   pushes redraw them;
// - tells the server which side panel (#table-side) the page shows, so a move's answer
//   carries a new one only when it changed;
// - keeps "away 3 min" by a seat and in the "Away from the table" panel counting while
//   nothing redraws the table, and hides the panel's "(possible once away 2 min)" hints
//   once that time has passed (data-ready-in);
// - counts each awaited seat's clock down (data-deadline, against the server's time in
//   #table-root's data-now when the page was loaded, so this computer's clock need not be
//   right; #table itself carries no time, so a redraw with nothing new is not sent);
// - asks the table's socket to skip ahead when a resolution is played out step by step
//   (the "Skip" button, data-skip-steps; games/steps.py).
(function () {
  "use strict";
  var panels = {}; // details id -> open?

  // As games/live/presence.py away_text words it. Counted from the seconds away when the server
  // drew it (data-away-for) and when this page got it, so the two clocks need not agree.
  // Words from Django's JavaScript catalogue (gettext, ngettext, interpolate: base.html).
  function said(format, values) { return interpolate(format, values, true); }
  function awayText(seconds) {
    var minutes = Math.floor(seconds / 60);
    if (minutes < 1) return gettext("away <1 min");
    if (minutes < 60) return said(gettext("away %(minutes)s min"), {minutes: minutes});
    if (minutes < 48 * 60) return said(gettext("away %(hours)s h"), {hours: Math.floor(minutes / 60)});
    var days = Math.floor(minutes / (24 * 60));
    return said(ngettext("away %(days)s day", "away %(days)s days", days), {days: days});
  }

  function tickAway() {
    var now = Date.now();
    document.querySelectorAll("time[data-away-for]").forEach(function (time) {
      if (!time.dataset.gotAt) time.dataset.gotAt = String(now);
      var seconds = parseInt(time.dataset.awayFor, 10) + (now - parseInt(time.dataset.gotAt, 10)) / 1000;
      var text = awayText(seconds);
      if (time.textContent !== text) time.textContent = text;
    });
  }
  document.addEventListener("htmx:load", tickAway); // new seats: note when they came
  window.setInterval(tickAway, 15000);

  // A hint that says an action is not possible yet hides itself when it becomes possible
  // (the server still checks: a click too early is answered with how long is left).
  function tickReady() {
    var now = Date.now();
    document.querySelectorAll("[data-ready-in]").forEach(function (hint) {
      if (!hint.dataset.gotAt) hint.dataset.gotAt = String(now);
      var waited = now - parseInt(hint.dataset.gotAt, 10);
      if (!hint.hidden && waited >= parseInt(hint.dataset.readyIn, 10) * 1000) hint.hidden = true;
    });
  }
  document.addEventListener("htmx:load", tickReady);
  window.setInterval(tickReady, 1000);

  // Seat clocks: "0:27", "4:05", "5 h 12 min", "2 d 3 h".
  var serverOffset = null; // server time minus this computer's, from the page's load
  function clockText(ms) {
    // Rounded: what is left of the deadline to the nearest second, so the server's time set
    // against ours a few milliseconds out never shows a 30-second wait as 0:31.
    var s = Math.max(0, Math.round(ms / 1000));
    if (s < 3600) return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
    var m = Math.floor(s / 60);
    if (m < 48 * 60) return said(gettext("%(hours)s h %(minutes)s min"), {hours: Math.floor(m / 60), minutes: m % 60});
    return said(gettext("%(days)s d %(hours)s h"), {days: Math.floor(m / 1440), hours: Math.floor((m % 1440) / 60)});
  }
  function tickClocks() {
    var now = Date.now() + (serverOffset || 0);
    document.querySelectorAll(".clock[data-deadline]").forEach(function (clock) {
      var left = parseInt(clock.dataset.deadline, 10) - now;
      var text = clockText(left);
      if (clock.textContent !== text) clock.textContent = text;
      clock.classList.toggle("clock-low", left < 10000);
    });
  }
  document.addEventListener("htmx:load", function () {
    var root = document.getElementById("table-root");
    if (serverOffset === null && root && root.dataset.now) {
      // data-now is the server's time as it drew the page: set it against when the page's
      // first byte came (Navigation Timing), not when its scripts ran, later by the time the
      // page took to load. Clocks counted from that later moment ran slow by it, so a
      // 30-second question first showed 0:31.
      var nav = window.performance && performance.getEntriesByType
        ? performance.getEntriesByType("navigation")[0] : null;
      var arrived = nav && nav.responseStart > 0
        ? performance.timeOrigin + nav.responseStart : Date.now();
      serverOffset = parseInt(root.dataset.now, 10) - arrived;
    }
    tickClocks();
  });
  window.setInterval(tickClocks, 1000);

  function refreshDiscard(form) {
    var button = form.querySelector(".discard-submit");
    if (!button) return;
    var n = form.querySelectorAll('input[name="cards"]:checked').length;
    var need = parseInt(button.dataset.need || "0", 10);
    if (need) {
      // A pass of exactly `need` cards (Hearts): say how far the choice has got.
      var words = {action: button.dataset.discard, count: n};
      button.textContent = n === need
        ? said(ngettext("%(action)s %(count)s card", "%(action)s %(count)s cards", n), words)
        : said(gettext("%(action)s (%(count)s chosen)"), {action: button.dataset.keep, count: n});
    } else {
      button.textContent = n ? said(gettext("%(action)s %(count)s"), {action: button.dataset.discard, count: n})
        : button.dataset.keep;
    }
  }

  function onTable(element) {
    return Boolean(element.closest && element.closest("#table, #table-side"));
  }

  function restorePanels() {
    Object.keys(panels).forEach(function (id) {
      var details = document.getElementById(id);
      if (details && onTable(details) && details.open !== panels[id]) {
        details.open = panels[id];
      }
    });
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var side = document.getElementById("table-side");
    if (side && event.detail.elt && onTable(event.detail.elt)) {
      event.detail.headers["X-Table-Side"] = side.dataset.side || "";
    }
  });

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest(".discard-form");
    if (!form) return;
    // A pass names exactly `need` cards: a tick past that is taken back at once.
    var button = form.querySelector(".discard-submit");
    var need = button ? parseInt(button.dataset.need || "0", 10) : 0;
    if (need && event.target.checked &&
        form.querySelectorAll('input[name="cards"]:checked').length > need) {
      event.target.checked = false;
    }
    refreshDiscard(form);
  });
  // "toggle" does not bubble: listen in the capture phase.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.tagName === "DETAILS" && details.id && onTable(details)) {
      panels[details.id] = details.open;
    }
  }, true);
  var gameSocket = null; // the table socket's htmx wrapper (base.html's #live-game)
  document.addEventListener("htmx:wsOpen", function (event) {
    if (event.target && event.target.id === "live-game") gameSocket = event.detail.socketWrapper;
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-skip-steps]");
    if (!button || !gameSocket) return;
    button.disabled = true;
    gameSocket.send(JSON.stringify({skip: button.dataset.skipSteps}));
  });

  document.addEventListener("htmx:afterSettle", restorePanels);
  document.addEventListener("htmx:oobAfterSwap", restorePanels);
  document.addEventListener("htmx:wsAfterMessage", restorePanels);
})();
