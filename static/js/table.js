// The table. Everything is plain forms + htmx; this file only
// - keeps the discard (or pass) button's label in step with the chosen cards ("Discard 2" /
//   "Keep my hand"; "Pass 3 cards" / "Choose 3 cards (1 chosen)"), and a pass at three cards;
// - keeps the panels (<details> with an id) open or closed as the player left them, although
//   pushes redraw them;
// - tells the server which side panel (#table-side) the page shows, so a move's answer
//   carries a new one only when it changed.
(function () {
  "use strict";
  var panels = {}; // details id -> open?

  function refreshDiscard(form) {
    var button = form.querySelector(".discard-submit");
    if (!button) return;
    var n = form.querySelectorAll('input[name="cards"]:checked').length;
    var need = parseInt(button.dataset.need || "0", 10);
    if (need) {
      // A pass of exactly `need` cards (Hearts): say how far the choice has got.
      button.textContent = n === need ? button.dataset.discard + " " + n + " cards"
        : button.dataset.keep + " (" + n + " chosen)";
    } else {
      button.textContent = n ? button.dataset.discard + " " + n : button.dataset.keep;
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
  document.addEventListener("htmx:afterSettle", restorePanels);
  document.addEventListener("htmx:oobAfterSwap", restorePanels);
  document.addEventListener("htmx:wsAfterMessage", restorePanels);
})();
