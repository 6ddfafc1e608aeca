// The host link that `companion host` prints carries the new host key in its fragment (#...), which the browser
// never sends to a server: this puts it in the form's field, for the player to send with one tap.
(() => {
  "use strict";
  const field = document.getElementById("host-key");
  const key = decodeURIComponent(window.location.hash.slice(1));
  if (field && key && !field.value) field.value = key;
})();
