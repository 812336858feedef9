/* The staff inbox's service worker (issue 32; plain JS, no build step).
 *
 * Served at /admin/handover/sw.js with the scope /admin/ (handover.views.service_worker).
 * It only shows Web Push alerts: the payload (handover.services.alert_send.alert_push_payload)
 * holds the event's title, the site and case number, and the case page's path, never a
 * message. A click opens the case, in an open admin tab if there is one.
 */
/* eslint-env serviceworker */
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (err) { data = {}; }
  const title = data.title || "Chat";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.case ? "case-" + data.case : undefined,
    renotify: true,
    icon: "/static/handover/icon-192.png",
    data: { url: data.url || "/admin/handover/case/inbox/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || "/admin/";
  const url = new URL(path, self.location.origin);
  if (url.origin !== self.location.origin) return;  // only our own pages
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
    for (const tab of tabs) {
      if (new URL(tab.url).pathname === url.pathname && "focus" in tab) return tab.focus();
    }
    return self.clients.openWindow(url.href);
  }));
});
