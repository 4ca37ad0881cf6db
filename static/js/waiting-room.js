/* The waiting room (templates/games/waiting_room.html).
   - Invite links are shown absolute and copied with one click.
   - Whenever the room is pushed (the ws extension swaps #room out of band), a "room-pushed"
     event on <body> makes #invite-links fetch itself again, so a link somebody just used
     disappears. Done here rather than with an hx-trigger filter, which htmx would have to
     evaluate as code (the Content-Security-Policy allows no eval). */
(function () {
  "use strict";

  function absolutize(root) {
    root.querySelectorAll("input[data-invite-path]").forEach(function (input) {
      input.value = new URL(input.dataset.invitePath, window.location.href).href;
    });
  }

  document.addEventListener("htmx:load", function (event) { absolutize(event.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () { absolutize(document); });

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target.id === "room") {
      document.body.dispatchEvent(new CustomEvent("room-pushed"));
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.getElementById(button.dataset.copy);
    input.select();
    var done = function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy"; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
    } else {
      document.execCommand("copy");
      done();
    }
  });
})();
