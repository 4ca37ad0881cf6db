// The table: keep the discard button's label in step with the chosen cards.
// Everything else is plain forms + htmx; this only makes "Discard N" / "Keep my hand" live.
(function () {
  "use strict";
  function refresh(form) {
    var button = form.querySelector(".discard-submit");
    if (!button) return;
    var n = form.querySelectorAll('input[name="cards"]:checked').length;
    button.textContent = n ? button.dataset.discard + " " + n : button.dataset.keep;
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest(".discard-form");
    if (form) refresh(form);
  });
})();
