/* Handover pages in admin (plain JS, no framework, no build step).
 *
 * Case page (#content-main.case-page[data-ws-path]): a staff websocket brings new turns
 * (already masked by the server) and state changes live; the reply form is sent with
 * fetch so the page stays put, and the reply itself arrives over the socket like any turn.
 * Case list (#handover-waiting[data-ws-path]): a live count of waiting cases.
 * Without JavaScript both pages still work: forms post normally, the count is rendered.
 */
(function () {
  "use strict";

  function socketUrl(path) {
    return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
  }

  // A socket that reconnects with backoff; onFrame gets parsed JSON frames.
  function live(path, onFrame) {
    let tries = 0, stopped = false;
    function open() {
      const ws = new WebSocket(socketUrl(path));
      ws.onopen = function () { tries = 0; };
      ws.onmessage = function (e) {
        let frame;
        try { frame = JSON.parse(e.data); } catch (err) { return; }
        if (onFrame(frame) === false) { stopped = true; ws.close(); }
      };
      ws.onclose = function (e) {
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
    const stateEl = document.getElementById("case-state");
    const labels = {
      visitor: root.dataset.labelVisitor, assistant: root.dataset.labelAssistant,
      staff: root.dataset.labelStaff, system: root.dataset.labelSystem,
    };
    const seen = new Set();
    if (transcript) {
      transcript.querySelectorAll("li[data-seq]").forEach(function (li) { seen.add(li.dataset.seq); });
    }

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
      return li;
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
          if (liveList) liveList.append(turnItem(f));
        } else if (f.type === "state") {
          if (stateEl && stateEl.dataset.state !== f.state) {
            stateEl.dataset.state = f.state;
            const label = root.getAttribute("data-state-" + f.state);
            stateEl.textContent = label || f.state;
            tell(root.dataset.textStateChanged);
          }
        } else if (f.type === "forgotten") {
          tell(root.dataset.textForgotten);
          return false;
        }
      });
    }

    const form = document.getElementById("reply-form");
    if (form && window.fetch && window.FormData) {
      const error = document.getElementById("reply-error");
      form.addEventListener("submit", function (e) {
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
