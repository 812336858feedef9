// The transcript e-mail's confirmation page (issue 25): the link's one-time token is in the
// URL fragment, which the browser never sends to a server. Move it into the form (sent as a
// POST body when the visitor presses the button) and out of the address bar.
(function () {
  "use strict";
  const form = document.getElementById("confirm");
  const token = location.hash.slice(1);
  if (!form || !/^[\w-]{16,200}$/.test(token)) return;
  history.replaceState(null, "", location.pathname);
  form.elements.token.value = token;
  form.querySelector("button").disabled = false;
})();
