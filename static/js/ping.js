/* The connection indicator of a game page (table, waiting room: #ws-ping, base.html).
   Every 5 s the page sends {"ping": n} over the game's socket (#live-game) and times the
   {"pong": n} the server sends back (games/consumers/live.py): under 150 ms is good
   (green), under 400 ms fair (amber), slower poor (red). When the socket closes, the
   browser goes offline or no answer came for 12 s, it says "Connection lost" (red); the
   first answer after that says "Back". docs/comforts.md. Words from Django's JavaScript
   catalogue (gettext, interpolate: base.html loads it first; docs/languages.md). */
(function () {
  "use strict";

  var INTERVAL_MS = 5000;
  var GOOD_MS = 150;
  var FAIR_MS = 400;
  var SILENT_MS = 12000; // no pong for this long (two missed pings and more): lost
  var BACK_MS = 4000; // how long "Back" stays before the figure alone

  var socket = null; // the game socket's htmx wrapper, while it is open
  var counter = 0;
  var sent = {}; // ping number -> performance.now() when sent
  var lastAnswer = 0;
  var lost = false;
  var backUntil = 0;

  function indicator() { return document.getElementById("ws-ping"); }

  function show(level, text, title) {
    var el = indicator();
    if (!el) { return; }
    el.hidden = false;
    el.dataset.level = level;
    el.textContent = text;
    el.title = title;
  }

  function loseConnection() {
    if (lost) { return; }
    lost = true;
    sent = {};
    show("lost", gettext("Connection lost"),
      gettext("The live connection to the server is down; trying again."));
  }

  function ping() {
    var now = performance.now();
    if (!navigator.onLine) { loseConnection(); return; }
    if (lastAnswer && now - lastAnswer > SILENT_MS) { loseConnection(); }
    if (!socket) { return; }
    counter += 1;
    sent[counter] = now;
    Object.keys(sent).forEach(function (key) { // forget pings that were never answered
      if (now - sent[key] > SILENT_MS) { delete sent[key]; }
    });
    try { socket.sendImmediately(JSON.stringify({ping: counter})); } catch (e) { loseConnection(); }
  }

  function answered(number) {
    var start = sent[number];
    if (start === undefined) { return; }
    delete sent[number];
    var now = performance.now();
    var ms = Math.max(1, Math.round(now - start));
    lastAnswer = now;
    if (!navigator.onLine) { return; } // an answer still in flight when the network went
    var level = ms < GOOD_MS ? "good" : ms < FAIR_MS ? "fair" : "poor";
    var title = interpolate(gettext("Round trip to the server: %(ms)s ms"), {ms: ms}, true);
    if (lost) {
      lost = false;
      backUntil = now + BACK_MS;
    }
    var figure = now < backUntil ? gettext("Back · %(ms)s ms") : gettext("%(ms)s ms");
    show(level, interpolate(figure, {ms: ms}, true), title);
  }

  function isGameSocket(evt) { return evt.target && evt.target.id === "live-game"; }

  document.addEventListener("htmx:wsOpen", function (evt) {
    if (!isGameSocket(evt)) { return; }
    socket = evt.detail.socketWrapper;
    lastAnswer = performance.now(); // give the new socket its own SILENT_MS to answer
    ping();
  });
  document.addEventListener("htmx:wsClose", function (evt) {
    if (!isGameSocket(evt)) { return; }
    socket = null;
    loseConnection();
  });
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var message = evt.detail && evt.detail.message;
    if (typeof message !== "string" || message.indexOf('{"pong":') !== 0) { return; }
    evt.preventDefault(); // not HTML (realtime.js ignores it too)
    var reply;
    try { reply = JSON.parse(message); } catch (e) { return; }
    if (reply && typeof reply.pong === "number") { answered(reply.pong); }
  });
  window.addEventListener("offline", loseConnection);
  window.addEventListener("online", ping);

  document.addEventListener("DOMContentLoaded", function () {
    if (!indicator()) { return; }
    window.setInterval(ping, INTERVAL_MS);
  });
})();
