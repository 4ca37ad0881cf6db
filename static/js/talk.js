/* Table talk (templates/games/_chat.html, games/talk/). Messages and reactions are posted
   with htmx (the socket stays push-only); each socket pushes new lines out of band into
   #chat-log, and a reaction's bubble into #talk-bubbles. This file:
   - opens the panel on wide screens and keeps it collapsed on a phone, with an unread count;
   - keys (never inside a text field, never with Ctrl/Alt/Meta, so they do not collide with
     the table's: arrows, Home/End, Page Up/Down, Enter, Space, Tab): 1-8 send the quick
     reactions, "/" goes to the message box, Escape leaves it;
   - empties the box once a message was accepted;
   - shows each bubble by its sender's seat (on the table or in the waiting room) for a few
     seconds (CSSOM styles: the Content-Security-Policy allows no inline style);
   - fetches the log again when the game's socket reconnects (lines pushed while it was down);
   - keeps what was typed when the socket redraws the composer (#chat-compose).
   Bots never talk. */
(function () {
  "use strict";

  var BUBBLE_MS = 4000;
  var WIDE = "(min-width: 760px)";
  var seen = 0; // the newest line id read (while the panel was open)
  var opens = 0; // how many times the game's socket opened
  var wantOpen = null; // the panel's state as the reader left it (null: not touched)

  function chat() { return document.getElementById("chat"); }

  function newest() {
    var max = 0;
    document.querySelectorAll("#chat-log .chat-line").forEach(function (line) {
      max = Math.max(max, parseInt(line.dataset.id || "0", 10));
    });
    return max;
  }

  function showUnread() {
    var panel = chat();
    var badge = document.getElementById("chat-unread");
    if (!panel || !badge) return;
    if (panel.open) {
      seen = newest();
      badge.hidden = true;
      badge.textContent = "";
      return;
    }
    var count = 0;
    document.querySelectorAll("#chat-log .chat-line").forEach(function (line) {
      if (parseInt(line.dataset.id || "0", 10) > seen) count += 1;
    });
    badge.hidden = count === 0;
    // ngettext, interpolate: Django's JavaScript catalogue (base.html).
    badge.textContent = count ? interpolate(ngettext("%(count)s new", "%(count)s new", count), {count: count}, true) : "";
  }

  function scrollLog() {
    var log = document.getElementById("chat-log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  function setUp() {
    var panel = chat();
    if (!panel) return;
    var open = wantOpen === null ? window.matchMedia(WIDE).matches : wantOpen;
    if (panel.open !== open) panel.open = open;
    if (!seen) seen = newest();
    showUnread();
    scrollLog();
  }

  document.addEventListener("toggle", function (event) {
    if (event.target && event.target.id === "chat") {
      wantOpen = event.target.open;
      showUnread();
      if (event.target.open) scrollLog();
    }
  }, true);

  // --- new lines and bubbles ----------------------------------------------------------------

  function placeBubbles() {
    var layer = document.getElementById("talk-bubbles");
    if (!layer) return;
    layer.querySelectorAll(".talk-bubble:not(.is-placed)").forEach(function (bubble) {
      var seat = document.querySelector(
        '#table .seat[data-seat="' + bubble.dataset.seat + '"], .room-seat[data-seat="' +
        bubble.dataset.seat + '"]');
      if (!seat) { bubble.remove(); return; }
      var box = seat.getBoundingClientRect();
      var origin = layer.getBoundingClientRect();
      bubble.classList.add("is-placed");
      bubble.style.left = Math.max(0, box.left - origin.left + (box.width - bubble.offsetWidth) / 2) + "px";
      // Just above the seat box, overlapping its edge a little.
      bubble.style.top = Math.max(0, box.top - origin.top - bubble.offsetHeight + 6) + "px";
      window.setTimeout(function () { bubble.remove(); }, BUBBLE_MS);
    });
  }

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target) return;
    if (target.id === "chat-log") {
      target.querySelectorAll(".chat-empty").forEach(function (empty) { empty.remove(); });
      showUnread();
      scrollLog();
    } else if (target.id === "talk-bubbles") {
      placeBubbles();
    }
  });

  // A message accepted: empty the box (the line itself comes back over the socket). The
  // socket may redraw the composer while the message is on its way (carrying over what was
  // typed, below): then the form that sent it is out of the page, and its events reach it
  // alone, not the document. So the form is listened to itself, and the box looked up again
  // when the answer comes; what was typed after sending stays.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (!form || form.id !== "chat-form") return;
    var input = form.querySelector("#chat-text");
    var sent = input ? input.value : "";
    form.addEventListener("htmx:afterRequest", function (done) {
      if (!done.detail || !done.detail.successful) return;
      var box = document.getElementById("chat-text");
      if (box && box.value === sent) box.value = "";
    }, {once: true});
  });

  // The composer redrawn by the socket (the organizer's setting, a rated hand starting or
  // ending): what was being typed, and the focus, stay if the message box is still there.
  var typed = null;
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "chat-compose") return;
    var input = document.getElementById("chat-text");
    typed = input ? {value: input.value, focused: document.activeElement === input} : null;
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "chat-compose" || !typed) return;
    var input = document.getElementById("chat-text");
    if (input) {
      input.value = typed.value;
      if (typed.focused) input.focus({preventScroll: true});
    }
    typed = null;
  });

  // After a mute or the organizer's setting the panel's body is new: the log is too.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && (target.id === "chat-body" || target.id === "replay")) setUp();
  });

  // --- reconnects ---------------------------------------------------------------------------

  document.addEventListener("htmx:wsOpen", function (event) {
    if (!event.target || event.target.id !== "live-game") return;
    opens += 1;
    var panel = chat();
    if (opens === 1 || !panel || !panel.dataset.logUrl || !window.htmx) return;
    fetch(panel.dataset.logUrl, {credentials: "same-origin", headers: {"HX-Request": "true"}})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var log = document.getElementById("chat-log");
        if (html && log) {
          window.htmx.swap(log, html, {swapStyle: "outerHTML"});
          showUnread();
          scrollLog();
        }
      })
      .catch(function () { /* offline again: the next reconnect tries again */ });
  });

  // --- keys ---------------------------------------------------------------------------------

  function typing(element) {
    if (!element) return false;
    var tag = element.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || element.isContentEditable;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var active = document.activeElement;
    if (event.key === "Escape" && active && active.id === "chat-text") {
      active.blur();
      var table = document.getElementById("table");
      if (table) table.focus({preventScroll: true});
      return;
    }
    if (typing(active)) return;
    if (event.key === "/") {
      var input = document.getElementById("chat-text");
      if (!input) return;
      event.preventDefault();
      var panel = chat();
      if (panel && !panel.open) panel.open = true;
      input.focus();
      return;
    }
    if (/^[1-8]$/.test(event.key)) {
      var button = document.querySelector('#chat [data-talk-key="' + event.key + '"]');
      if (button && !button.disabled) {
        event.preventDefault();
        button.click();
      }
    }
  });

  document.addEventListener("DOMContentLoaded", setUp);
})();
