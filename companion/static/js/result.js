// The result page's "Share link" button: the phone's share sheet where there is one, else the clipboard,
// else the link field selected for copying. Says what happened next to the button.
(function () {
  "use strict";
  var button = document.getElementById("share-result");
  var field = document.getElementById("share-url");
  var said = document.getElementById("share-feedback");
  if (!button || !field) { return; }
  button.disabled = false; // rendered disabled: a tap before this ran did nothing
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

// The rematch, live: a result page left open hears the game's versions (the same stream the table page
// uses) and, when one is newer than the page, re-reads the page and swaps its rematch part, so a rematch
// started on another phone is offered here without a reload. Once offered there is nothing more to hear.
(function () {
  "use strict";
  var area = document.getElementById("rematch-area");
  if (!area || typeof window.EventSource !== "function" || typeof window.DOMParser !== "function") { return; }
  var version = Number(area.getAttribute("data-version"));
  var stream = null;
  var busy = false;

  function offered() { return !!document.getElementById("rematch-offer"); }
  function close() { if (stream) { stream.close(); stream = null; } }

  function refresh(latest) {
    if (busy || latest <= version) { return; }
    busy = true;
    fetch(window.location.pathname, { cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var fresh = html && new DOMParser().parseFromString(html, "text/html").getElementById("rematch-area");
        if (!fresh) { return; } // the game was reopened or is gone: the page says what it said
        var had = offered();
        var current = document.getElementById("rematch-area");
        current.replaceWith(fresh);
        area = fresh;
        version = Math.max(latest, Number(fresh.getAttribute("data-version")));
        if (!had && offered()) {
          document.getElementById("share-feedback").textContent = "A rematch has started.";
          close();
        }
      })
      .catch(function () { /* offline for a moment: the next version tries again */ })
      .then(function () { busy = false; });
  }

  function open() {
    if (stream || document.hidden || offered()) { return; }
    stream = new EventSource(area.getAttribute("data-events-url"));
    stream.addEventListener("version", function (message) {
      var data = {};
      try { data = JSON.parse(message.data); } catch (error) { return; }
      if (typeof data.version === "number") { refresh(data.version); }
    });
  }

  document.addEventListener("visibilitychange", function () { if (document.hidden) { close(); } else { open(); } });
  open();
})();
