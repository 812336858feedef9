/* The Alerts page (issue 32; plain JS, no build step): turn on Web Push on this device.
 *
 * Registers the service worker (/admin/handover/sw.js, scope /admin/), asks for permission,
 * subscribes with the server's VAPID public key and posts the subscription (endpoint and keys)
 * with the page's CSRF token. The page lists the devices; removing one is a plain form.
 */
(function () {
  "use strict";

  function keyBytes(b64) {
    const padded = (b64 + "===".slice((b64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(padded);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
    return out;
  }

  function deviceLabel() {
    const ua = navigator.userAgent;
    const os = /iPhone|iPad/.test(ua) ? "iOS" : /Android/.test(ua) ? "Android"
      : /Mac OS X/.test(ua) ? "macOS" : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : "";
    const browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox"
      : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "";
    return [browser, os].filter(Boolean).join(", ");
  }

  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function setup(root) {
    const button = document.getElementById("alerts-subscribe");
    const status = document.getElementById("alerts-push-status");
    if (!button) return;
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      button.hidden = true;
      status.textContent = root.dataset.textUnsupported;
      return;
    }
    if (Notification.permission === "denied") status.textContent = root.dataset.textDenied;

    button.addEventListener("click", function () {
      button.disabled = true;
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") throw new Error("denied");
        return navigator.serviceWorker.register(root.dataset.swUrl, { scope: "/admin/" });
      }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function (registration) {
        return registration.pushManager.getSubscription().then(function (existing) {
          return existing || registration.pushManager.subscribe({
            userVisibleOnly: true, applicationServerKey: keyBytes(root.dataset.publicKey),
          });
        });
      }).then(function (subscription) {
        const body = Object.assign(subscription.toJSON(), { device: deviceLabel() });
        return fetch(root.dataset.pushUrl, {
          method: "POST", credentials: "same-origin", body: JSON.stringify(body),
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        });
      }).then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        status.textContent = root.dataset.textOn;
        location.reload();
      }).catch(function (err) {
        button.disabled = false;
        status.textContent = err && err.message === "denied" ? root.dataset.textDenied : root.dataset.textFailed;
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const root = document.getElementById("alerts-push");
    if (root) setup(root);
  });
})();
