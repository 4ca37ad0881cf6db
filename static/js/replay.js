// The replay: keys step through the game by following the page's own step links
// (data-replay-key), so a key does exactly what its button does.
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    var link = document.querySelector('#replay [data-replay-key="' + event.key + '"]');
    if (!link || link.classList.contains("is-disabled")) return;
    event.preventDefault();
    link.click();
  });
})();
