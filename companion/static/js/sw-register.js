/* Installs the service worker where the browser allows one (https, or http://localhost): rules search and
   visited card pages then work without network. On a plain http:// LAN address nothing happens. */
(() => {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* pages work without */ });
  if (document.readyState === "complete") register(); else window.addEventListener("load", register, { once: true });
})();
