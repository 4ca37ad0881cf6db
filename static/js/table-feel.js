// The table's feel across redraws. Every move (hx-post) and every push (websocket,
// out-of-band by id) replaces #table, and #table-side when it changed (or, when only the
// seats' marks changed, the seats and the banner, by selector: a patch); this file makes
// that invisible:
// - an older table never replaces a newer one (data-version: a slow POST answer arriving
//   after a push is dropped; the side panel by its data-side), and an answer whose table a
//   push replaced meanwhile goes into the current table, not the old one; a hint shown
//   stays through a redraw of the same version;
// - focus stays on the same control (buttons have stable ids), or on #table when that
//   control is gone, so keyboard play goes on with Tab; the scroll position stays put
//   (a scrolled page keeps its height as a floor, so it cannot shrink under you);
// - a card that just reached the trick slides in from its player's side (CSS
//   .trick-play.is-new; nothing moves with prefers-reduced-motion), and keeps sliding
//   when another redraw arrives mid-flight;
// - the site-wide turn bar hides while it only points at this very table.
(function () {
  "use strict";

  var FLIGHT_MS = 320; // keep in step with the animation in table.css
  var seen = {}; // "round:card" -> when it first appeared in the trick
  var saved = null;

  function currentVersion() {
    var table = document.getElementById("table");
    return table ? parseInt(table.dataset.version || "-1", 10) : -1;
  }

  function versionIn(html) {
    var found = /id="table"[^>]*data-version="(\d+)"|data-version="(\d+)"[^>]*id="table"/.exec(html || "");
    return found ? parseInt(found[1] || found[2], 10) : null;
  }

  // The two parts of the table that redraws replace: #table and #table-side.
  function regionOf(element) {
    var region = element && element.closest ? element.closest("#table, #table-side") : null;
    return region ? region.id : "";
  }

  function remember() {
    var active = document.activeElement;
    // A shorter table (say, the bid buttons went away) would pull a scrolled page up under
    // the reader: while the page is scrolled, the page keeps its height as a floor.
    var main = document.getElementById("main");
    if (main) {
      main.style.minHeight = window.scrollY > 0
        ? Math.max(main.offsetHeight, parseFloat(main.style.minHeight) || 0) + "px" : "";
    }
    saved = {
      id: active && active.id ? active.id : "",
      region: active && active !== document.body ? regionOf(active) : "",
      scrollY: window.scrollY,
    };
  }

  function restore(keep) {
    var table = document.getElementById("table");
    if (!table || !saved) return;
    var was = saved;
    if (!keep) saved = null;
    var region = was.region ? document.getElementById(was.region) : null;
    if (region) {
      var active = document.activeElement;
      var lost = !active || active === document.body || !document.body.contains(active);
      if (lost) {
        var again = was.id ? document.getElementById(was.id) : null;
        if (again && region.contains(again) && !again.disabled) {
          again.focus({preventScroll: true});
        }
        if (document.activeElement !== again) {
          table.focus({preventScroll: true}); // Tab goes on from the top of the table
        }
      }
    }
    if (window.scrollY !== was.scrollY) window.scrollTo(window.scrollX, was.scrollY);
    markNewCards(table);
  }

  // The side panel's key, "rounds.tricks.over", as one growing number: an older panel
  // (a slow answer) never replaces a newer one.
  function sideOrder(key) {
    var parts = String(key || "").split(".").map(Number);
    if (parts.length !== 3 || parts.some(isNaN)) return -1;
    return (parts[0] * 100 + parts[1]) * 2 + parts[2];
  }

  function markNewCards(table) {
    var now = Date.now();
    var round = table.dataset.round || "";
    var plays = table.querySelectorAll(".trick:not(.trick-done) .trick-play");
    for (var i = 0; i < plays.length; i++) {
      var card = plays[i].querySelector("[data-card]");
      if (!card) continue;
      var key = round + ":" + card.dataset.card;
      if (!(key in seen)) seen[key] = firstRender ? 0 : now;
      var age = now - seen[key];
      if (age < FLIGHT_MS) {
        plays[i].classList.add("is-new");
        plays[i].style.animationDelay = "-" + age + "ms";
      }
    }
  }

  // A move's answer: drop it if a push already brought a newer table, or the same version
  // while the socket plays a resolution out step by step (games/steps.py: the answer is the
  // state after the steps, which the socket draws when they are done). Its side panel (out
  // of band) is swapped before its #table: focus is restored once, after the #table.
  function outdated(incoming) {
    if (incoming === null) return false;
    var table = document.getElementById("table");
    var stepping = Boolean(table && table.hasAttribute("data-step"));
    return incoming < currentVersion() || (stepping && incoming === currentVersion());
  }
  var answering = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "table") return;
    if (outdated(versionIn(event.detail.serverResponse))) {
      event.detail.shouldSwap = false;
      return;
    }
    remember();
    answering = true;
  });
  // ...and when a push replaced the table the move was made from before the answer came
  // (the push of the move's own version, or a later one, won the race): htmx would handle
  // the answer against that old table, now out of the page, so nothing would show and the
  // answer's out-of-band #table-side, looked for in the old table only, would log
  // htmx:oobErrorNoTarget. htmx fires that answer's events on the old table, which listeners
  // on document never hear: each table a request leaves from gets this listener, which swaps
  // the answer into the current table instead (unless it is older: then it is dropped). A
  // hint's answer goes to the current table's hint the same way.
  function answerForReplacedTable(event) {
    var detail = event.detail;
    var gone = detail.target;
    if (!gone || document.body.contains(gone)) return; // the usual case, handled above
    var wanted = detail.shouldSwap;
    detail.shouldSwap = false;
    var table = document.getElementById("table");
    if (!wanted || !table || !window.htmx) return;
    if (gone.id === "hint") {
      // A hint asked of a table that a redraw of the same version replaced (the socket's
      // first frame after the page loaded, say): shown in the table now in the page. After
      // a move it would be another turn's hint: dropped.
      var asked = gone.closest("#table");
      var hint = document.getElementById("hint");
      if (hint && asked && parseInt(asked.getAttribute("data-version"), 10) === currentVersion()) {
        window.htmx.swap(hint, detail.serverResponse, {swapStyle: "outerHTML", swapDelay: 0});
      }
      return;
    }
    if (gone.id !== "table") return;
    var incoming = versionIn(detail.serverResponse);
    if (incoming === null || outdated(incoming)) return;
    remember();
    answering = true;
    // Its events name the table it replaces as their target, as an answer's own do, so the
    // focus and scroll restore below runs.
    window.htmx.swap(table, detail.serverResponse,
      {swapStyle: "outerHTML", swapDelay: 0, settleDelay: window.htmx.config.defaultSettleDelay},
      {eventInfo: {target: table}});
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    var from = event.target && event.target.closest ? event.target.closest("#table") : null;
    if (from) from.addEventListener("htmx:beforeSwap", answerForReplacedTable); // once per table
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    // htmx settles right after this (templates/_htmx_config.html): restore now and once more then.
    if (event.detail.target && event.detail.target.id === "table") {
      answering = false;
      restore(true);
      window.setTimeout(function () { if (saved) restore(false); }, 60); // in case no settle event
    }
  });
  document.addEventListener("htmx:afterRequest", function () {
    answering = false; // whatever became of the answer (no swap, an error), pushes go on
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (saved) restore(false);
  });

  // A push over the websocket (out-of-band by id).
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    var fragment = event.detail.fragment;
    if (target && target.id === "turn-banner" && fragment && fragment.firstElementChild) {
      markHere(fragment.firstElementChild); // before it is in the page: no flash, no jump
      return;
    }
    var element = fragment && fragment.firstElementChild;
    if (target && target.id === "table-side" && element) {
      if (sideOrder(element.getAttribute("data-side")) < sideOrder(target.dataset.side)) {
        event.detail.shouldSwap = false;
        return;
      }
      if (!answering) remember();
      return;
    }
    // A patch of the seats' marks (games/consumers/marks.py): seat elements and the banner,
    // each naming the version it brings. An older one (a move's answer already brought a
    // newer table) is dropped; otherwise the table now is of that version.
    var patched = element ? element.getAttribute("data-table-version") : null;
    if (patched !== null) {
      var brought = parseInt(patched, 10);
      var table = document.getElementById("table");
      if (!table || !table.contains(target) || brought < currentVersion()) {
        event.detail.shouldSwap = false;
        return;
      }
      if (!answering) remember();
      table.dataset.version = String(brought);
      return;
    }
    if (!target || target.id !== "table") return;
    var incoming = element ? parseInt(element.getAttribute("data-version") || "-1", 10) : -1;
    if (incoming >= 0 && incoming < currentVersion()) {
      event.detail.shouldSwap = false;
      return;
    }
    if (incoming === currentVersion()) keepHint(element);
    remember();
  });

  // A hint on screen is this turn's until the table changes version: a redraw of the same
  // version (a seated player went away: the table offers what to do; the socket's first
  // frame after a page load) keeps it, as text, which is all a hint is.
  function keepHint(incoming) {
    var shown = document.getElementById("hint");
    var fresh = incoming.querySelector("#hint");
    if (shown && fresh && shown.textContent.trim() && !fresh.textContent.trim()) {
      fresh.textContent = shown.textContent;
    }
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (saved && !answering) restore();
    hereBanner();
  });

  // The site-wide "Your turn in <game>" bar (realtime.js) is for other pages: at that very
  // table the table says so itself, and the bar coming and going would push the page about.
  function markHere(banner) {
    if (!document.getElementById("table-root")) return;
    var here = banner.getAttribute("data-turn-count") === "1" &&
      banner.getAttribute("data-turn-url") === window.location.pathname;
    // An attribute, not a class: htmx gives a swapped-in element the old one's classes until
    // it settles, so a class would let the bar show for a moment and push the page about.
    banner.toggleAttribute("data-here", here);
  }
  function hereBanner() {
    var banner = document.getElementById("turn-banner");
    if (banner) markHere(banner);
  }

  var firstRender = true;
  document.addEventListener("DOMContentLoaded", function () {
    var table = document.getElementById("table");
    if (table) markNewCards(table); // cards already on the table do not fly in
    hereBanner();
    firstRender = false;
  });
})();
