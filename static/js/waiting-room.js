/* The waiting room (templates/games/waiting_room.html).
   - Invite links are shown absolute and copied with one click.
   - Whenever the room is pushed (the ws extension swaps #room out of band), #invite-links
     fetches itself again (its data-refresh), so a link somebody just used disappears.
     The links hold their own forms (create, revoke), whose answers carry #room out of band,
     which htmx looks up from the form: a refresh must not replace a form whose answer is on
     its way. So no refresh starts while one of those forms waits for its answer (the answer
     redraws the links anyway), and a form sent while a refresh is on its way cancels it.
     Done with fetch rather than hx-get because htmx reports a cancelled request on the
     console, and an hx-trigger filter would have to be evaluated as code (the
     Content-Security-Policy allows no eval). */
(function () {
  "use strict";

  function absolutize(root) {
    root.querySelectorAll("input[data-invite-path]").forEach(function (input) {
      input.value = new URL(input.dataset.invitePath, window.location.href).href;
    });
  }

  document.addEventListener("htmx:load", function (event) { absolutize(event.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () { absolutize(document); });

  var refreshing = null; // the AbortController of the links' refresh on its way
  var sending = 0; // the links' forms waiting for their answer

  function refreshLinks() {
    var links = document.getElementById("invite-links");
    if (!links || sending) return;
    if (refreshing) refreshing.abort();
    var controller = refreshing = new AbortController();
    fetch(links.dataset.refresh, { signal: controller.signal, headers: { "HX-Request": "true" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var current = document.getElementById("invite-links");
        if (html !== null && current && refreshing === controller && !sending) {
          htmx.swap(current, html, { swapStyle: "outerHTML" });
        }
      })
      .catch(function () { /* cancelled, or offline: the next push refreshes them */ })
      .finally(function () { if (refreshing === controller) refreshing = null; });
  }

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target.id === "room") refreshLinks();
  });

  document.addEventListener("htmx:beforeSend", function (event) {
    if (!event.target.closest || !event.target.closest("#invite-links")) return;
    sending += 1;
    if (refreshing) { refreshing.abort(); refreshing = null; }
    event.detail.xhr.addEventListener("loadend", function () { sending -= 1; });
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.getElementById(button.dataset.copy);
    input.select();
    var done = function () {
      // The page's word (in its language) is put back after; gettext: base.html's catalogue.
      if (!button.dataset.word) button.dataset.word = button.textContent;
      button.textContent = gettext("Copied");
      setTimeout(function () { button.textContent = button.dataset.word; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { document.execCommand("copy"); done(); });
    } else {
      document.execCommand("copy");
      done();
    }
  });
})();
