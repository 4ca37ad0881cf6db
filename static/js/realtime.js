/* Live pages (see games/consumers/). htmx's ws extension opens the sockets declared in
   base.html and swaps pushed fragments in by id; this script adds what htmx cannot:
   - #ws-status follows the sockets: "Reconnecting…" while one is down, hidden when all are up;
     a socket the server refused (4401 signed out, 4403 not allowed) is not retried, and the
     pill says so, with the way on: sign in again (back to this page), or reload;
   - redirect instructions ({"redirect": url}) become location.assign(url), once per page
     (an htmx HX-Redirect counts too);
   - the #turn-banner drives the tab title, the favicon, an optional chime (off by default,
     remembered in localStorage) and a browser notification when the tab is hidden
     (permission is asked only when "Enable notifications" is clicked);
   - notices can be dismissed.
   The chime (static/img/turn.wav) is a 0.3 s two-tone sine generated with Python's `wave`;
   the same switch ("Sounds") governs the card sound of static/js/comforts.js. */
(function () {
  "use strict";

  var SOUND_KEY = "hundredten.turnSound";
  var TURN_PREFIX = "● " + gettext("Your turn") + " · "; // gettext: Django's JavaScript catalogue
  var RETRY_CODES = [1006, 1011, 1012, 1013]; // htmx's ws extension retries these itself
  var REFUSED_CODES = [4401, 4403]; // the server said no: retrying will not help

  var sockets = new Map(); // socket element -> {state, everOpen}
  var leaving = false;
  var slowTimer = null;
  var baseTitle = document.title.indexOf(TURN_PREFIX) === 0
    ? document.title.slice(TURN_PREFIX.length) : document.title;
  var baseIcon = null;

  if (window.htmx) {
    // Come back quickly after a restart or a sleep: jittered, doubling, capped at 8 s.
    window.htmx.config.wsReconnectDelay = function (retry) {
      var ceiling = Math.min(8000, 500 * Math.pow(2, retry));
      return ceiling / 2 + Math.random() * ceiling / 2;
    };
  }

  // --- connection status -------------------------------------------------------------------

  function statusElement() { return document.getElementById("ws-status"); }

  function showStatus() {
    var el = statusElement();
    if (!el) { return; }
    var state = "connected";
    var refused = 0;
    sockets.forEach(function (info, elt) {
      if (!document.body.contains(elt)) { sockets.delete(elt); return; }
      if (info.refused) {
        refused = refused === 4401 ? refused : info.refused; // signed out says the most
      } else if (info.state !== "open") {
        state = info.everOpen || state === "reconnecting" ? "reconnecting" : "connecting";
      }
    });
    if (refused) {
      showRefused(el, refused);
      return;
    }
    el.dataset.state = state;
    if (state === "connected") {
      el.textContent = gettext("Live");
      el.hidden = true;
    } else if (state === "reconnecting") {
      el.textContent = gettext("Reconnecting…");
      el.hidden = false;
    } else {
      el.textContent = gettext("Connecting…");
      // A first connection is usually instant: only say so if it is slow.
      if (!slowTimer) {
        slowTimer = setTimeout(function () {
          slowTimer = null;
          var now = statusElement();
          if (now && now.dataset.state === "connecting") { now.hidden = false; }
        }, 1500);
      }
    }
  }

  // Refused for good: a link (the whole pill) to the way on, never "Reconnecting…".
  function showRefused(el, code) {
    var state = code === 4401 ? "signed-out" : "refused";
    if (el.dataset.state === state) { return; }
    el.dataset.state = state;
    var here = window.location.pathname + window.location.search;
    var link = document.createElement("a");
    if (code === 4401) {
      var signIn = el.dataset.signIn || "/accounts/login/";
      link.href = signIn + "?next=" + encodeURIComponent(here);
      link.textContent = gettext("Signed out: sign in again");
    } else {
      link.href = here;
      link.textContent = gettext("No longer allowed here: reload the page");
    }
    el.textContent = "";
    el.appendChild(link);
    el.hidden = false;
  }

  function track(elt, state) {
    var info = sockets.get(elt) || {state: "connecting", everOpen: false};
    info.state = state;
    if (state === "open") { info.everOpen = true; info.refused = 0; }
    sockets.set(elt, info);
    showStatus();
  }

  document.addEventListener("htmx:wsConnecting", function (evt) { track(evt.target, "connecting"); });
  document.addEventListener("htmx:wsOpen", function (evt) { track(evt.target, "open"); });
  document.addEventListener("htmx:wsClose", function (evt) {
    if (leaving) { return; }
    var elt = evt.target;
    var code = evt.detail && evt.detail.event ? evt.detail.event.code : 1006;
    if (REFUSED_CODES.indexOf(code) >= 0) {
      var info = sockets.get(elt) || {state: "closed", everOpen: false};
      info.refused = code;
      sockets.set(elt, info);
    }
    track(elt, "closed");
    var wrapper = evt.detail && evt.detail.socketWrapper;
    // htmx retries abnormal closures only; a server that shuts down cleanly (1001) or
    // closes for another reason should be retried too, unless it refused us.
    if (RETRY_CODES.indexOf(code) < 0 && REFUSED_CODES.indexOf(code) < 0 && wrapper &&
        document.body.contains(elt)) {
      setTimeout(function () {
        if (!leaving && document.body.contains(elt)) { wrapper.reconnect(); }
      }, 500 + Math.random() * 1500);
    }
  });
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });

  // --- instructions ---------------------------------------------------------------------------

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var message = evt.detail && evt.detail.message;
    if (typeof message !== "string" || message.charAt(0) !== "{") { return; }
    evt.preventDefault(); // not HTML: do not let htmx try to swap it
    var instruction;
    try { instruction = JSON.parse(message); } catch (e) { return; }
    if (instruction && typeof instruction.redirect === "string" &&
        instruction.redirect.charAt(0) === "/" && instruction.redirect.charAt(1) !== "/") {
      if (leaving) { return; } // already on the way (see below)
      leaving = true;
      window.location.assign(instruction.redirect);
    }
  });

  // A page is sent elsewhere once. Pressing Start tells the organizer's page where to go
  // twice: the answer (HX-Redirect) and the waiting room's socket (the redirect above, maybe
  // more than once). Whichever comes first navigates; the others are ignored, or the
  // table would load two or three times.
  document.addEventListener("htmx:beforeOnLoad", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    if (!xhr || !xhr.getResponseHeader("HX-Redirect")) { return; }
    if (leaving) {
      evt.preventDefault(); // a socket sent the page on its way already
      return;
    }
    leaving = true; // htmx navigates now
  });

  // --- your turn ------------------------------------------------------------------------------

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function chime() {
    var live = document.getElementById("live-user");
    if (!soundOn() || !live || !live.dataset.sound) { return; }
    try {
      var audio = new Audio(live.dataset.sound);
      audio.volume = 0.6;
      var played = audio.play();
      if (played && played.catch) { played.catch(function () {}); } // autoplay refused: stay quiet
    } catch (e) { /* no audio on this device */ }
  }

  function notify(banner) {
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") {
      return;
    }
    try {
      var note = new Notification(gettext("Your turn · Card tables"), {
        body: banner.dataset.turnText || gettext("It’s your turn."),
        tag: "hundredten-turn",
        icon: (document.getElementById("live-user") || {dataset: {}}).dataset.faviconTurn,
      });
      note.onclick = function () {
        window.focus();
        if (banner.dataset.turnUrl) { window.location.assign(banner.dataset.turnUrl); }
        note.close();
      };
    } catch (e) { /* some browsers only allow notifications from a service worker */ }
  }

  function applyTurn() {
    var banner = document.getElementById("turn-banner");
    var live = document.getElementById("live-user");
    var favicon = document.getElementById("favicon");
    if (!banner) { return; }
    var myTurn = parseInt(banner.dataset.turnCount || "0", 10) > 0;
    document.body.classList.toggle("my-turn", myTurn);
    document.title = myTurn ? TURN_PREFIX + baseTitle : baseTitle;
    if (favicon && live && live.dataset.faviconTurn) {
      if (baseIcon === null) { baseIcon = favicon.getAttribute("href"); }
      favicon.setAttribute("href", myTurn ? live.dataset.faviconTurn : baseIcon);
    }
    if (myTurn && banner.dataset.fresh) {
      delete banner.dataset.fresh; // chime once per new turn, never on a redraw
      chime();
      notify(banner);
    }
  }

  document.addEventListener("htmx:wsAfterMessage", applyTurn);

  // --- controls ---------------------------------------------------------------------------

  function showSoundToggle() {
    var button = document.getElementById("sound-toggle");
    if (!button) { return; }
    var on = soundOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = on ? gettext("Sounds: on") : gettext("Sounds: off");
  }

  function showNotifyControl() {
    var button = document.getElementById("notify-enable");
    if (!button) { return; }
    button.hidden = !("Notification" in window) || Notification.permission !== "default";
  }

  document.addEventListener("click", function (evt) {
    var target = evt.target instanceof Element ? evt.target : null;
    if (!target) { return; }
    if (target.closest("#sound-toggle")) {
      try { window.localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
      showSoundToggle();
      if (soundOn()) { chime(); } // a sample, and it unlocks audio on this page
      return;
    }
    if (target.closest("#notify-enable") && "Notification" in window) {
      var asked = Notification.requestPermission(showNotifyControl);
      if (asked && asked.then) { asked.then(showNotifyControl); }
      return;
    }
    var acting = target.closest("[data-notice-action]");
    if (acting) {
      noticeAction(acting);
      return;
    }
    var dismiss = target.closest("[data-dismiss]");
    if (dismiss) {
      var notice = dismiss.closest(".notice");
      if (notice) { notice.remove(); }
    }
  });

  // Accept / decline in an invitation notice. Posted with fetch rather than hx-post: the
  // socket may take the notice down (the invitation is answered) before the response
  // arrives, and htmx drops responses for elements that left the page.
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  function noticeAction(button) {
    var notice = button.closest(".notice");
    var action = button.dataset.noticeAction;
    button.disabled = true;
    fetch(button.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"X-CSRFToken": csrfToken(), "HX-Request": "true"},
    }).then(function (response) {
      if (response.ok) {
        if (action === "accept" && button.dataset.go) {
          leaving = true;
          window.location.assign(button.dataset.go);
        } else if (notice) {
          notice.remove();
        }
        return null;
      }
      return response.text().then(function (body) {
        var text = gettext("That invitation is no longer open.");
        var doc = new DOMParser().parseFromString(body, "text/html");
        var shown = doc.querySelector(".message-error, [role=alert]");
        if (shown && shown.textContent.trim()) { text = shown.textContent.trim(); }
        var slot = notice && notice.querySelector(".notice-error");
        if (slot) { slot.textContent = text; slot.hidden = false; }
        button.disabled = false;
      });
    }).catch(function () {
      button.disabled = false;
      var slot = notice && notice.querySelector(".notice-error");
      var offline = gettext("No connection. Try again in a moment.");
      if (slot) { slot.textContent = offline; slot.hidden = false; }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    showSoundToggle();
    showNotifyControl();
    applyTurn();
  });
})();
