/* The live inbox in admin (plain JS, no build step).
 *
 * The server renders the open cases; the staff socket (/ws/staff/) then sends a case's row
 * again whenever it changes ({"type": "inbox", "case": id, "row": {...} | null}; null: the
 * case left the inbox). Rows are built with textContent only. While the page is open the
 * socket is this user's presence: a heartbeat every 30 s keeps it. With permission, a new
 * waiting case shows a browser notification.
 *
 * Issue 32: the filters "mine" and "unassigned" (?show=; a live row that no longer matches
 * leaves the list), and "Assign to me" / "Assign to…" on each row, posted to the case's
 * action URL like the case page does (the row comes back over the socket).
 */
(function () {
  "use strict";

  const HEARTBEAT_MS = 30000;

  function socketUrl(path) {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  }

  function cell(tr, cls, text) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    td.textContent = text;
    tr.append(td);
    return td;
  }

  function inbox(root) {
    const body = document.getElementById("inbox-rows");
    const empty = document.getElementById("inbox-empty");
    const status = document.getElementById("inbox-connection");
    const notifyButton = document.getElementById("inbox-notify");
    const caseUrl = root.dataset.caseUrl;  // .../case/0/change/
    const show = root.dataset.show || "all";
    const userId = Number(root.dataset.userId);
    const canAct = root.dataset.canAct === "1";
    const listed = document.getElementById("inbox-assignable");
    const assignable = listed ? JSON.parse(listed.textContent) : [];
    const actionStatus = document.getElementById("inbox-action-status");

    function shown(r) {
      if (show === "mine") return r.assignee_id === userId;
      if (show === "unassigned") return r.assignee_id === null || r.assignee_id === undefined;
      return true;
    }

    function actionsCell(tr, r) {
      const td = cell(tr, "actions", "");
      if (r.assignee_id !== userId) {
        const me = document.createElement("button");
        me.type = "button";
        me.className = "button";
        me.dataset.assign = "me";
        me.textContent = root.dataset.textAssignMe;
        td.append(me, " ");
      }
      const select = document.createElement("select");
      select.dataset.assign = "other";
      select.setAttribute("aria-label", root.dataset.textAssignTo);
      const first = document.createElement("option");
      first.value = "";
      first.textContent = root.dataset.textAssignTo;
      select.append(first);
      assignable.forEach(function (u) {
        if (u.sites !== null && u.sites.indexOf(r.site) < 0) return;  // may not see the site
        const option = document.createElement("option");
        option.value = String(u.id);
        option.textContent = u.name;
        select.append(option);
      });
      td.append(select);
    }

    function assign(caseId, assignee) {
      const action = assignee === null ? "claim" : "assign";
      // .../case/0/do/assign/ -> .../case/<id>/do/<claim|assign>/
      const url = root.dataset.actionUrl.replace(/\/0\/do\/assign\/$/, "/" + caseId + "/do/" + action + "/");
      const data = new FormData();
      const token = root.querySelector("input[name=csrfmiddlewaretoken]");
      data.append("csrfmiddlewaretoken", token ? token.value : "");
      if (assignee !== null) data.append("assignee", String(assignee));
      actionStatus.textContent = "";
      fetch(url, {
        method: "POST", body: data, credentials: "same-origin",
        headers: { "X-Requested-With": "fetch" },
      }).then(function (response) {
        return response.json().catch(function () { return { ok: false }; }).then(function (answer) {
          if (!response.ok || !answer.ok) throw new Error(answer.error || root.dataset.textFailed);
          reload();
        });
      }).catch(function (err) {
        actionStatus.textContent = (err && err.message) || root.dataset.textFailed;
      });
    }

    if (canAct) {
      body.addEventListener("click", function (e) {
        const button = e.target.closest("button[data-assign=me]");
        if (button) assign(button.closest("tr").dataset.case, null);
      });
      body.addEventListener("change", function (e) {
        const select = e.target.closest("select[data-assign=other]");
        if (select && select.value) assign(select.closest("tr").dataset.case, Number(select.value));
      });
    }

    function rowFor(r) {
      const tr = document.createElement("tr");
      tr.dataset.case = String(r.id);
      tr.dataset.status = r.status;
      tr.dataset.assignee = r.assignee_id === null || r.assignee_id === undefined ? "" : String(r.assignee_id);
      const link = document.createElement("a");
      link.href = caseUrl.replace("/0/", "/" + r.id + "/");
      link.textContent = root.dataset.textCase + " " + r.id;
      cell(tr, "", "").append(link);
      cell(tr, "site", r.site_name);
      cell(tr, "status", r.status_label);
      const badge = document.createElement("span");
      badge.className = "unread";
      badge.dataset.n = String(r.unread);
      badge.textContent = String(r.unread);
      cell(tr, "", "").append(badge);
      cell(tr, "assignee", r.assignee || "–");
      cell(tr, "request", r.request || "–");
      const time = document.createElement("time");
      time.dateTime = r.requested_at;
      // in the site's zone and format, named, as on the case page (the server formats it)
      time.textContent = r.requested_label || r.requested_at;
      cell(tr, "", "").append(time);
      if (canAct) actionsCell(tr, r);
      return tr;
    }

    // After every (re)connect: the rows as they are now, for changes made while no socket
    // listened (between the page's render and the connect, or during an outage).
    let applied = 0;  // frames applied: a reload that raced one is done again
    function reload() {
      if (!window.fetch || !window.DOMParser) return;
      const before = applied;
      fetch(location.href, { credentials: "same-origin" }).then(function (r) {
        return r.ok ? r.text() : Promise.reject(new Error(String(r.status)));
      }).then(function (html) {
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("inbox-rows");
        if (!fresh) return;
        if (applied !== before) { reload(); return; }
        body.replaceChildren.apply(body, Array.from(fresh.children).map(function (tr) {
          return document.importNode(tr, true);
        }));
        empty.hidden = body.children.length > 0;
      }).catch(function () { /* the next frame or reconnect tries again */ });
    }

    function notify(r) {
      if (!("Notification" in window) || Notification.permission !== "granted") return;
      try {
        const n = new Notification(root.dataset.textNewCase, {
          body: r.site_name + (r.request ? ": " + r.request : ""), tag: "case-" + r.id,
        });
        n.onclick = function () { window.focus(); location.href = caseUrl.replace("/0/", "/" + r.id + "/"); };
      } catch (err) { /* some browsers allow notifications only from a service worker */ }
    }

    function apply(f) {
      applied += 1;
      const old = body.querySelector('tr[data-case="' + f.case + '"]');
      if (!f.row || !shown(f.row)) {
        if (old) old.remove();
      } else {
        const tr = rowFor(f.row);
        if (old) old.replaceWith(tr); else body.append(tr);
        if (!old && f.row.status === "waiting") notify(f.row);
      }
      empty.hidden = body.children.length > 0;
    }

    if (notifyButton && "Notification" in window && Notification.permission === "default") {
      notifyButton.hidden = false;
      notifyButton.addEventListener("click", function () {
        Notification.requestPermission().then(function () { notifyButton.hidden = true; });
      });
    }

    let tries = 0;
    function open() {
      const ws = new WebSocket(socketUrl(root.dataset.wsPath));
      let beat = null;
      ws.onopen = function () {
        tries = 0;
        status.textContent = root.dataset.textLive;
        root.dataset.live = "1";
        beat = setInterval(function () { ws.send('{"type":"ping"}'); }, HEARTBEAT_MS);
        reload();
      };
      ws.onmessage = function (e) {
        let f;
        try { f = JSON.parse(e.data); } catch (err) { return; }
        if (f.type === "inbox") apply(f);
      };
      ws.onclose = function (e) {
        clearInterval(beat);
        root.dataset.live = "";
        status.textContent = root.dataset.textOffline;
        if (e.code === 4403) return;
        tries += 1;
        setTimeout(open, Math.min(30000, 500 * Math.pow(2, tries)));
      };
    }
    open();
  }

  document.addEventListener("DOMContentLoaded", function () {
    const root = document.querySelector(".inbox[data-ws-path]");
    if (root) inbox(root);
  });
})();
