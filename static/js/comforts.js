/* Table comforts (docs/comforts.md), on the table page only:
   - "Confirm before playing" (a profile setting: the server marks the hand's form
     data-confirm-play and adds a hidden #confirm-play button): a click on a playable card
     picks it and shows "Play <card>"; a second click on the same card, or that button,
     plays it. The pick survives redraws while the card is still playable.
   - a big bid (data-confirm-bid, written per game: BIG_BID in its table.py) asks once.
   - a short card sound whenever a card lands in the middle of the felt (#center-area),
     beside the turn chime, under the same switch ("Sounds" in the menu, localStorage). */
(function () {
  "use strict";

  var SOUND_KEY = "hundredten.turnSound"; // the one switch, kept by static/js/realtime.js
  var picked = ""; // the code of the card picked and not played yet
  var centre = null; // the card codes in the middle of the felt at the last look

  // --- confirm before playing ---------------------------------------------------------------

  function confirmButton(form) { return form.querySelector("#confirm-play"); }

  function showPick(form) {
    var button = confirmButton(form);
    var card = null;
    form.querySelectorAll("button.pcard-playable").forEach(function (each) {
      var on = picked !== "" && each.value === picked;
      each.classList.toggle("pcard-picked", on);
      each.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) { card = each; }
    });
    if (!card) { picked = ""; }
    if (!button) { return; }
    button.hidden = !card;
    button.value = card ? card.value : "";
    button.textContent = card ? (card.getAttribute("aria-label") || button.dataset.label) : button.dataset.label;
  }

  function restorePick() {
    var form = document.querySelector("form[data-confirm-play]");
    if (form) { showPick(form); } else { picked = ""; }
  }

  document.addEventListener("click", function (evt) {
    var target = evt.target instanceof Element ? evt.target : null;
    if (!target) { return; }
    var bid = target.closest("[data-confirm-bid]");
    if (bid) {
      if (!window.confirm(bid.dataset.confirmBid)) {
        evt.preventDefault();
        evt.stopPropagation();
      }
      return;
    }
    var card = target.closest("form[data-confirm-play] button.pcard-playable");
    if (!card || card.value === picked) { return; } // a second click plays
    evt.preventDefault();
    picked = card.value;
    showPick(card.closest("form"));
  }, true);

  // --- the card sound -----------------------------------------------------------------------

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function cardSound() {
    var root = document.getElementById("table-root");
    if (!soundOn() || !root || !root.dataset.playSound) { return; }
    try {
      var audio = new Audio(root.dataset.playSound);
      audio.volume = 0.5;
      var played = audio.play();
      if (played && played.catch) { played.catch(function () {}); } // autoplay refused
    } catch (e) { /* no audio on this device */ }
  }

  function lookAtCentre() {
    var area = document.getElementById("center-area");
    var now = {};
    if (area) {
      area.querySelectorAll("[data-card]").forEach(function (el) { now[el.dataset.card] = true; });
    }
    if (centre !== null && Object.keys(now).some(function (code) { return !centre[code]; })) {
      cardSound();
    }
    centre = now;
  }

  function afterRedraw() {
    restorePick();
    lookAtCentre();
  }

  document.addEventListener("htmx:afterSettle", afterRedraw);
  document.addEventListener("htmx:oobAfterSwap", afterRedraw);
  document.addEventListener("htmx:wsAfterMessage", afterRedraw);
  document.addEventListener("DOMContentLoaded", afterRedraw);
})();
