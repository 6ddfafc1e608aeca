// The result page's "Share link" button: the phone's share sheet where there is one, else the clipboard,
// else the link field selected for copying. Says what happened next to the button.
(function () {
  "use strict";
  var button = document.getElementById("share-result");
  var field = document.getElementById("share-url");
  var said = document.getElementById("share-feedback");
  if (!button || !field) { return; }
  function say(text) { said.textContent = text; }
  function select() { field.focus(); field.select(); say("The link is selected: copy it."); }
  button.addEventListener("click", function () {
    var url = button.getAttribute("data-url");
    if (navigator.share) {
      navigator.share({ title: button.getAttribute("data-title"), url: url })
        .then(function () { say("Shared."); }, function () { select(); });
    } else if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(function () { say("Link copied."); }, select);
    } else {
      select();
    }
  });
})();
