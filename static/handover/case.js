/* Handover pages in admin (plain JS, no framework, no build step).
 *
 * Case page (#content-main.case-page[data-ws-path]): a staff websocket brings new turns
 * (already masked by the server) and state changes live; the reply form is sent with
 * fetch so the page stays put, and the reply itself arrives over the socket like any turn.
 * A state change (or a reconnect) re-reads the page and swaps in the actions that fit the
 * new state and any turn the socket missed: the page never goes stale. Canned replies are
 * inserted with /shortcut + Tab or Alt+1..9.
 * Case list (#handover-waiting[data-ws-path]): a live count of waiting cases.
 * Without JavaScript both pages still work: forms post normally, the count is rendered.
 */
(function () {
  "use strict";

  function socketUrl(path) {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  }

  // A socket that reconnects with backoff; onFrame gets parsed JSON frames; onOpen runs on
  // every (re)connect; a heartbeat keeps the user's presence (handover.services.presence).
  function live(path, onFrame, onOpen) {
    let tries = 0, stopped = false;
    function open() {
      const ws = new WebSocket(socketUrl(path));
      let beat = null;
      ws.onopen = function () {
        tries = 0;
        beat = setInterval(function () { ws.send('{"type":"ping"}'); }, 30000);
        if (onOpen) onOpen();
      };
      ws.onmessage = function (e) {
        let frame;
        try { frame = JSON.parse(e.data); } catch (err) { return; }
        if (onFrame(frame) === false) { stopped = true; ws.close(); }
      };
      ws.onclose = function (e) {
        clearInterval(beat);
        if (stopped || e.code === 4403 || e.code === 4404) return;
        tries += 1;
        setTimeout(open, Math.min(30000, 500 * Math.pow(2, tries)));
      };
    }
    open();
  }

  function casePage(root) {
    const path = root.dataset.wsPath;
    const transcript = document.getElementById("transcript-turns");
    const liveList = document.getElementById("live-turns");
    const note = document.getElementById("case-live-note");
    const labels = {
      visitor: root.dataset.labelVisitor, assistant: root.dataset.labelAssistant,
      staff: root.dataset.labelStaff, system: root.dataset.labelSystem,
    };
    if (liveList) liveList.scrollTop = liveList.scrollHeight; // the newest turn in view
    const seen = new Set();
    [transcript, liveList].forEach(function (list) {
      if (list) list.querySelectorAll("li[data-seq]").forEach(function (li) { seen.add(li.dataset.seq); });
    });

    function turnItem(t) {
      const li = document.createElement("li");
      li.className = "turn " + (labels[t.role] ? t.role : "system");
      li.dataset.seq = String(t.seq);
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = (labels[t.role] || labels.system) + (t.author ? " (" + t.author + ")" : "");
      const time = document.createElement("time");
      time.dateTime = t.at || "";
      time.textContent = "#" + t.seq;
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = t.text;  // text, never HTML
      li.append(who, time, text);
      if (t.page && t.page.url) li.append(pageLine(t.page));
      (Array.isArray(t.attachments) ? t.attachments : []).forEach(function (a, index) {
        li.append(attachmentLine(t.seq, index, a));
      });
      return li;
    }

    // a visitor's photo (shown) or file (a link), served by the case's attachment view;
    // the template's twin: admin/handover/case/turn.html
    function attachmentLine(seq, index, a) {
      const line = document.createElement("span");
      line.className = "attachment";
      const url = (root.dataset.attachmentUrl || "").replace(/0\/0\/$/, seq + "/" + index + "/");
      const name = String(a && a.name || "");
      const link = document.createElement("a");
      link.href = url;
      if (a && a.kind === "image") {
        link.target = "_blank";
        link.rel = "noopener";
        const img = document.createElement("img");
        img.src = url;
        img.alt = (root.dataset.labelPhoto || "%s").replace("%s", name);
        img.loading = "lazy";
        link.append(img);
      } else {
        link.textContent = (root.dataset.labelFile || "%s").replace("%s", name);
      }
      line.append(link);
      return line;
    }

    // where the visitor asked from: text, and a link only for the http(s) URL the server
    // marked linkable (`href`); the template's twin: admin/handover/case/turn.html
    function pageLine(page) {
      const line = document.createElement("span");
      line.className = "page";
      line.append((root.dataset.labelPage || "Page") + ": ");
      if (page.title) {
        const title = document.createElement("span");
        title.className = "page-title";
        title.textContent = page.title;
        line.append(title, " · ");
      }
      const safe = typeof page.href === "string" && /^https?:\/\//i.test(page.href);
      const url = document.createElement(safe ? "a" : "span");
      url.className = "page-url";
      url.textContent = page.url;
      if (safe) {
        url.href = page.href;
        url.rel = "noopener noreferrer nofollow";
        url.target = "_blank";
      }
      line.append(url);
      return line;
    }

    function tell(text) {
      if (!note) return;
      note.textContent = text;
      note.hidden = false;
    }

    if (path) {
      live(path, function (f) {
        if (f.type === "message") {
          const key = String(f.seq);
          if (seen.has(key)) return;
          seen.add(key);
          if (transcript) transcript.append(turnItem(f));
          if (liveList) { liveList.append(turnItem(f)); liveList.scrollTop = liveList.scrollHeight; }
        } else if (f.type === "state") {
          const current = document.getElementById("case-state");
          if (current && current.dataset.state !== f.state) {
            current.dataset.state = f.state;
            const label = root.getAttribute("data-state-" + f.state);
            current.textContent = label || f.state;
            tell(root.dataset.textStateChanged);
            refresh();  // the actions that fit the new state, without a reload
          }
        } else if (f.type === "forgotten") {
          tell(root.dataset.textForgotten);
          return false;
        }
      }, refresh);
    }

    // Re-read the page and swap in the parts that depend on the state (meta line, reply
    // box, actions) and any turn the socket missed (before it connected, while it was down).
    let refreshing = null;
    const stateNow = document.getElementById("case-state");
    let rendered = stateNow ? stateNow.dataset.state : "";  // the state the actions were made for
    function refresh() {
      if (!window.fetch || !window.DOMParser) return;
      if (refreshing) { refreshing.again = true; return; }
      refreshing = { again: false };
      fetch(location.href, { credentials: "same-origin" }).then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        return r.text();
      }).then(function (html) {
        const doc = new DOMParser().parseFromString(html, "text/html");
        const newState = doc.getElementById("case-state");
        const state = newState ? newState.dataset.state : "";
        if (state !== rendered) {  // the actions fit another state now; typed text stays
          rendered = state;
          const typed = document.getElementById("reply-text");
          const draft = typed ? typed.value : "";
          ["case-actions", "reply-box"].forEach(function (id) {
            const mine = document.getElementById(id), theirs = doc.getElementById(id);
            if (mine && theirs) mine.replaceWith(document.importNode(theirs, true));
            else if (mine && !theirs) mine.remove();
          });
          const box = document.getElementById("reply-text");
          if (box && draft) box.value = draft;
        }
        const meta = document.querySelector(".case-meta"), newMeta = doc.querySelector(".case-meta");
        if (meta && newMeta) meta.replaceWith(document.importNode(newMeta, true));
        doc.querySelectorAll("#live-turns li[data-seq]").forEach(function (li) {
          if (seen.has(li.dataset.seq)) return;
          seen.add(li.dataset.seq);
          if (liveList) { liveList.append(document.importNode(li, true)); liveList.scrollTop = liveList.scrollHeight; }
          if (transcript) transcript.append(document.importNode(li, true));
        });
        if (note && !note.hidden && note.textContent === root.dataset.textStateChanged) note.hidden = true;
      }).catch(function () { /* the socket's next frame or reconnect tries again */ })
        .finally(function () {
          const again = refreshing.again;
          refreshing = null;
          if (again) refresh();
        });
    }

    // Canned replies: /shortcut + Tab, Alt+1..9, or the select box.
    function canned() {
      const data = document.getElementById("canned-data");
      try { return data ? JSON.parse(data.textContent) : []; } catch (err) { return []; }
    }
    function insert(textarea, text, replaceFrom) {
      const start = replaceFrom === undefined ? textarea.selectionStart : replaceFrom;
      const before = textarea.value.slice(0, start), after = textarea.value.slice(textarea.selectionEnd);
      textarea.value = before + text + after;
      const pos = before.length + text.length;
      textarea.setSelectionRange(pos, pos);
      textarea.focus();
    }
    root.addEventListener("keydown", function (e) {
      const textarea = e.target;
      if (!textarea || textarea.id !== "reply-text") return;
      const replies = canned();
      if (!replies.length) return;
      if (e.key === "Tab" && !e.shiftKey) {
        const upto = textarea.value.slice(0, textarea.selectionStart);
        const m = /(?:^|\s)\/([\w-]+)$/.exec(upto);
        const hit = m && replies.find(function (c) { return c.shortcut === m[1]; });
        if (hit) { e.preventDefault(); insert(textarea, hit.text, upto.length - m[1].length - 1); }
      } else if (e.altKey && /^[1-9]$/.test(e.key) && replies[Number(e.key) - 1]) {
        e.preventDefault();
        insert(textarea, replies[Number(e.key) - 1].text);
      }
    });
    root.addEventListener("change", function (e) {
      if (!e.target || e.target.id !== "canned-select" || e.target.value === "") return;
      const hit = canned()[Number(e.target.value)];
      e.target.value = "";
      if (hit) insert(document.getElementById("reply-text"), hit.text);
    });

    if (window.fetch && window.FormData) {
      root.addEventListener("submit", function (e) {
        const form = e.target;
        if (!form || form.id !== "reply-form") return;
        const error = document.getElementById("reply-error");
        e.preventDefault();
        const button = form.querySelector("button[type=submit]");
        const text = form.querySelector("textarea");
        if (!text.value.trim()) return;
        button.disabled = true;
        if (error) error.hidden = true;
        fetch(form.action, {
          method: "POST", body: new FormData(form), credentials: "same-origin",
          headers: { "X-Requested-With": "fetch" },
        }).then(function (r) {
          return r.json().catch(function () { return { ok: false }; }).then(function (data) {
            if (!r.ok || !data.ok) throw new Error(data.error || root.dataset.textSendFailed);
            text.value = "";
          });
        }).catch(function (err) {
          if (error) { error.textContent = err.message || root.dataset.textSendFailed; error.hidden = false; }
        }).finally(function () {
          button.disabled = false;
          text.focus();
        });
      });
    }
  }

  function waitingBadge(badge) {
    const count = document.getElementById("handover-waiting-count");
    live(badge.dataset.wsPath, function (f) {
      if (f.type !== "cases") return;
      count.textContent = String(f.waiting);
      badge.classList.toggle("none", !f.waiting);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const root = document.querySelector(".case-page[data-ws-path]");
    if (root) casePage(root);
    const badge = document.getElementById("handover-waiting");
    if (badge && badge.dataset.wsPath) waitingBadge(badge);
  });
})();
