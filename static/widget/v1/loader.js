/*! Shop chat widget v1 – plain JS, no framework, no build step. Contract: static/widget/README.md */
(() => {
  "use strict";
  // currentScript is set only during this first synchronous run (async scripts too)
  const me = document.currentScript || document.querySelector('script[src*="/widget/v1/loader.js"][data-site]');
  if (!me || !me.dataset.site || window.__cwWidget) return;

  const SITE = me.dataset.site;
  const ORIGIN = new URL(me.src, location.href).origin;
  const LANG = /^de/i.test(me.dataset.lang || document.documentElement.lang || navigator.language || "") ? "de" : "en";
  const NS = "http://www.w3.org/2000/svg";
  const ICON = {
    chat: "M21 11.5a8.4 8.4 0 0 1-12.3 7.5L3 21l2-5.5A8.4 8.4 0 1 1 21 11.5z",
    x: "M6 6l12 12M18 6L6 18",
    dots: "M12 5h.01M12 12h.01M12 19h.01",
    send: "M4 12l16-8-6 16-2.5-6.5z",
  };

  // -- tiny helpers
  // h(tag, {c: class, onX: listener, attr: value}, ...children); strings become text nodes, never HTML
  const h = (tag, a, ...kids) => {
    const e = document.createElement(tag);
    for (const k in a) {
      const v = a[k];
      if (v == null || v === false) continue;
      if (k === "c") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    e.append(...kids.filter(Boolean));
    return e;
  };
  const b = (label, fn, a) => h("button", { type: "button", onclick: fn, ...a }, label);
  const ic = (name) => {
    const s = document.createElementNS(NS, "svg"), p = document.createElementNS(NS, "path");
    s.setAttribute("viewBox", "0 0 24 24");
    s.setAttribute("aria-hidden", "true");
    p.setAttribute("d", ICON[name]);
    s.append(p);
    return s;
  };
  const getCk = (n) => {
    const m = document.cookie.match("(^|; )" + n + "=([^;]*)"); // names from config: [A-Za-z0-9_]
    return m ? decodeURIComponent(m[2]) : null;
  };
  const setCk = (n, v, age) => {
    document.cookie = n + "=" + encodeURIComponent(v) + "; path=/; max-age=" + age + "; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
  };
  const rid = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  // sessionStorage: only the open flag
  const flag = (v) => { try { return v == null ? sessionStorage.cw_open : v ? (sessionStorage.cw_open = 1) : sessionStorage.removeItem("cw_open"); } catch (e) {} };

  // -- styles (WCAG AA: #1f4fd1 on white 6.8:1, #555 on white 7.5:1, #b00020 6.6:1)
  const CSS = `:host{all:initial!important}
*{box-sizing:border-box}[hidden]{display:none!important}
.w{font:15px/1.45 system-ui,sans-serif;color:#1a1a1a}
button,textarea,input{font:inherit;color:inherit}button{cursor:pointer;border:0;background:none}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
:focus-visible{outline:3px solid #1f4fd1;outline-offset:2px}
svg{width:24px;height:24px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.l,.sd,.ib{display:grid;place-items:center}
.l{position:fixed;right:20px;bottom:20px;z-index:2147483646;width:56px;height:56px;border-radius:50%;background:#1f4fd1;color:#fff;box-shadow:0 4px 14px #0005}
.l:hover{background:#183fa8}.l svg{width:28px;height:28px}.l:focus-visible{box-shadow:0 0 0 2px #fff}
.u:after{content:"";position:absolute;top:2px;right:2px;width:14px;height:14px;border-radius:50%;background:#c4001a;border:2px solid #fff}
.p{position:fixed;right:20px;bottom:88px;z-index:2147483647;width:380px;height:620px;max-width:calc(100vw - 40px);max-height:calc(100vh - 108px);display:flex;flex-direction:column;background:#fff;border-radius:12px;box-shadow:0 8px 32px #0005;overflow:hidden;animation:cw .2s}
@keyframes cw{from{opacity:0;transform:translateY(8px)}}
.hd{display:flex;align-items:center;padding:8px 6px 8px 16px;background:#1f4fd1;color:#fff}
h2{flex:1;margin:0;font-size:16px}
.ib{width:40px;height:40px;border-radius:8px}.ib:hover{background:#fff3}.hd :focus-visible{outline-color:#fff;outline-offset:-3px}
.mn{padding:6px;border-bottom:1px solid #ccc;background:#f7f8fa;max-height:65%;overflow:auto}
.mn>button{display:block;width:100%;text-align:left;padding:9px 10px;border-radius:6px}
.mn>button:hover{background:#e8ecf3}.mn>button:disabled{color:#6b6b6b;background:none;cursor:default}
label{display:flex;gap:10px;padding:9px 10px}input{flex:none;margin:2px 0 0;width:18px;height:18px;accent-color:#1f4fd1}
.x{margin:0 10px 8px 38px;font-size:13px;color:#555}a{color:#1f4fd1}
.cf{padding:8px 10px}.cf p{margin:0 0 8px}.cf button{margin-right:8px}
.bt{padding:6px 14px;border-radius:16px;border:1px solid #1f4fd1;color:#1f4fd1}
.dg{background:#b00020;border-color:#b00020;color:#fff}
.st,.bn{padding:7px 16px;font-size:14px}.st,.waiting{background:#fff4d6;color:#5c4200}
.human{background:#e3f5e9;color:#14532d}.closed{background:#eee;color:#333}
.sc{flex:1;overflow-y:auto;padding:14px 12px;overscroll-behavior:contain}
.lg{display:flex;flex-direction:column;gap:10px}
.m{display:flex;flex-direction:column;align-items:flex-start;max-width:85%}
.b,.ty{padding:8px 12px;border-radius:14px;background:#eef0f4;white-space:pre-wrap;overflow-wrap:anywhere}
.visitor{align-self:flex-end;align-items:flex-end}.visitor .b{background:#1f4fd1;color:#fff}
.pd .b{background:#4a6bd1}.f .b{background:#6b6b6b}
.staff .b{background:#e3f5e9;color:#10381f}.who{font-size:12px;color:#555;margin:0 6px 2px}
.system{align-self:center}.system .b{background:none;font-size:13px;color:#555;text-align:center}
.n{margin:4px 6px 0;font-size:13px;color:#555}.lg>.n{align-self:center;text-align:center}.e{color:#b00020}
.pf{padding:10px 12px;border:1px solid #ccc;border-radius:10px;font-size:14px}
h3{margin:0 0 6px;font-size:14px}dl{margin:0 0 8px}dt{font-weight:600}dd{margin:0 0 4px}
.ty{display:flex;gap:4px;width:max-content;padding:13px 14px}
.ty i{width:7px;height:7px;border-radius:50%;background:#555;animation:dt 1.2s infinite}
.ty i:nth-child(2){animation-delay:.2s}.ty i:nth-child(3){animation-delay:.4s}
@keyframes dt{50%{opacity:.25}}
.hp{padding:0 12px 8px}
form{display:flex;gap:8px;align-items:flex-end;padding:10px 12px 12px;border-top:1px solid #ddd}
textarea{flex:1;resize:none;height:44px;max-height:128px;padding:10px 12px;border:1px solid #767676;border-radius:10px;font-size:16px;background:#fff}
textarea:disabled{background:#f1f1f1;color:#555}::placeholder{color:#6b6b6b;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.sd{flex:none;width:44px;height:44px;border-radius:10px;background:#1f4fd1;color:#fff}.sd:disabled{background:#6b6b6b}
.ct{padding:0 14px 6px;margin-top:-6px;font-size:12px;color:#555;text-align:right}
@media (max-width:480px){.p{inset:0;width:auto;height:100vh;height:100dvh;max-width:none;max-height:none;border-radius:0}.o .l{display:none}}
@media (prefers-reduced-motion:reduce){*{animation:none!important}}`;

  // -- state
  let T = { open: "Open chat", close: "Close chat", unavailable: "The chat is not available right now." };
  let C = null, SC, RC, loading = null;
  let ws = null, ready = false, tries = 0, timer = 0, gone = false;
  let tok = null, touched = false, state = "bot", stick = true, lastStatus = "";
  const rows = new Map();  // seq -> row: dedupes tabs and reconnects
  const queue = new Map(); // client id -> {text, row} until acked
  const ids = new Map();   // client id -> row, for errors
  let ctl = [];            // control frames held until welcome
  let R, W, L, A, P, log, sc, ty, ta, sendB, cnt, st, bn, hp, mn, mb, cb, fb, cf, dls, greet;

  // resume after the last complete turn: an answer seen only as deltas comes back whole
  const maxSeq = () => { let m = 0; rows.forEach((r, k) => { if (r.done !== 0 && k > m) m = k; }); return m; };
  const say = (t) => { A.textContent = ""; setTimeout(() => (A.textContent = t), 60); };
  const scroll = (force) => { if (force) stick = true; if (stick && sc) sc.scrollTop = 1e9; };

  // -- messages in the log
  const row = (role) => {
    role = /^(visitor|assistant|staff)$/.test(role) ? role : "system";
    const r = h("div", { c: "m " + role }), lab = { visitor: T.you, assistant: T.assistant, staff: T.staff }[role];
    if (lab) r.append(role === "staff" ? h("span", { c: "who" }, lab) : h("span", { c: "sr" }, lab + ": "));
    r.append((r.b = h("div", { c: "b" })));
    r.role = role;
    return r;
  };
  // pending rows and the typing dots (.p) stay below numbered rows
  const place = (r) => {
    for (const c of log.children) if (c !== r && (c.p || c.seq > r.seq)) return log.insertBefore(r, c);
    log.append(r);
  };
  const add = (el) => { place(el); scroll(); };
  const note = (parent, text, cls) => parent.append(h("p", { c: "n " + (cls || "") }, text));
  const hint = (r) => { if (!r.hint) note(r, T.removed_hint), (r.hint = 1); };
  const put = (t) => { // a complete turn replaces streamed or optimistic text
    let r = rows.get(t.seq);
    if (!r) { r = row(t.role); r.seq = t.seq; rows.set(t.seq, r); place(r); }
    if (r.sent != null && t.text !== r.sent) hint(r); // server masked our text
    r.b.textContent = t.text;
    r.removeAttribute("aria-busy");
    r.done = 1;
    scroll();
    return r;
  };
  const typing = (on) => { if (on) add(ty); else ty.remove(); };
  const clearAll = () => {
    while (log.lastChild && log.lastChild !== greet) log.lastChild.remove();
    rows.clear(); queue.clear(); ids.clear();
  };

  // -- cookies and session token
  const setTok = (v, persist) => {
    tok = v || null;
    if (tok && persist) setCk(SC.name, tok, SC.max_age);
    if (!tok && getCk(SC.name) != null) setCk(SC.name, "", 0);
    dls.forEach((b) => (b.disabled = !tok));
  };

  // -- websocket
  const send = (f) => ws.send(JSON.stringify(f));
  const sendCtl = (f) => { touched = true; if (ready) send(f); else ctl.push(f), ensure(); };
  const ensure = () => { if (!ws && C) connect(); };
  const status = (t) => { st.textContent = t || ""; st.hidden = !t; if (t && t !== lastStatus && !P.hidden) say(t); lastStatus = t || ""; };
  const retry = () => {
    status(navigator.onLine === false ? T.offline : T.reconnecting);
    timer = setTimeout(connect, Math.random() * Math.min(15000, 500 * 2 ** tries++));
  };
  function connect() {
    clearTimeout(timer); timer = 0; gone = false;
    let s;
    try { s = new WebSocket(C.ws); } catch (e) { return retry(); }
    ws = s; ready = false;
    s.onopen = () => send({ type: "hello", session: tok || getCk(SC.name), last_seq: maxSeq() || null, recognition: getCk(RC.name) });
    s.onmessage = (e) => {
      let f;
      try { f = JSON.parse(e.data); } catch (x) { return; }
      if (f && on.hasOwnProperty(f.type)) on[f.type](f);
    };
    s.onclose = () => {
      if (ws !== s) return;
      ws = null; ready = false; typing(false);
      if (!gone) retry();
    };
  }

  const on = {
    welcome(f) {
      ready = true; tries = 0; status();
      if (!f.resumed && rows.size) { for (const r of rows.values()) r.remove(); rows.clear(); }
      setTok(f.session, touched || getCk(SC.name) != null);
      (f.turns || []).forEach(put);
      setState(f.state);
      queue.forEach((q, id) => send({ type: "message", id, text: q.text }));
      ctl.splice(0).forEach(send);
    },
    ack(f) {
      touched = true; status();
      setTok(f.session, true); // first interaction: cookie created here
      const q = queue.get(f.id);
      if (!q) return;
      queue.delete(f.id);
      const r = q.row, dup = rows.get(f.seq);
      r.p = 0; r.classList.remove("pd");
      if (dup) { r.remove(); if (dup.b.textContent !== q.text) hint(dup); }
      else { r.seq = f.seq; rows.set(f.seq, r); place(r); if (f.text != null) put(f); }
      if (state === "bot" && f.seq >= maxSeq()) typing(true);
    },
    delta(f) {
      typing(false);
      let r = rows.get(f.seq);
      if (r && r.done) return;
      if (!r) { r = put({ seq: f.seq, role: "assistant", text: "" }); r.done = 0; r.setAttribute("aria-busy", "true"); }
      r.b.append(f.text);
      scroll();
    },
    message(f) {
      if (f.role !== "visitor") {
        typing(false);
        if (P.hidden) L.classList.add("u"), L.setAttribute("aria-label", T.open + " (" + T.new_message + ")");
      }
      put(f);
    },
    state(f) { setState(f.state); },
    forgotten() {
      gone = true; touched = false; setTok(null); clearAll(); setState("bot");
      note(log, T.forgotten); say(T.forgotten); showConfirm(false);
    },
    error(f) {
      typing(false);
      const text = f.message || T["err_" + f.code] || T.err_generic, q = queue.get(f.id), r = ids.get(f.id);
      if (q && f.code === "unavailable") { // briefly down: keep it and resend with the same id
        setTimeout(() => queue.has(f.id) && send({ type: "message", id: f.id, text: q.text }), 2e3 + Math.random() * 3e3);
        return status(text);
      }
      if (q) { queue.delete(f.id); q.row.classList.add("f"); q.row.p = 0; if (!ta.value) ta.value = q.text; }
      if (r) note(r, text, "e"); else add(h("p", { c: "n e" }, text));
      say(text);
    },
    consent(f) {
      if (f.recognition && f.token) setCk(RC.name, f.token, f.max_age || RC.max_age);
      if (!f.recognition) setCk(RC.name, "", 0);
      cb.checked = !!f.recognition;
    },
    profile(f) {
      const keys = Object.keys(f.fields || {}), card = h("div", { c: "pf" }, h("h3", {}, T.profile_title));
      if (!keys.length) card.append(h("p", { c: "n" }, T.nothing_stored));
      else {
        const dl = h("dl");
        for (const k of keys) {
          const v = f.fields[k];
          dl.append(h("dt", {}, k), h("dd", {}, Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v)));
        }
        card.append(dl, b(T.forget_me, () => consent(false), { c: "bt" }));
      }
      add(card);
    },
  };

  const setState = (s) => {
    state = s || "bot";
    const closed = state === "closed";
    bn.className = "bn " + state;
    bn.textContent = T[state] || "";
    bn.hidden = state === "bot";
    hp.hidden = state !== "bot";
    ta.disabled = sendB.disabled = closed;
    ta.placeholder = closed ? T.closed : T.placeholder;
    if (state !== "bot") typing(false);
  };

  // -- visitor actions
  const submit = () => {
    const text = ta.value.trim();
    if (!text || state === "closed") return;
    ta.value = ""; grow();
    const id = rid(), r = row("visitor");
    r.p = 1; r.sent = text; r.b.textContent = text; r.classList.add("pd");
    log.append(r); scroll(true);
    queue.set(id, { text, row: r }); ids.set(id, r); touched = true;
    if (ready) send({ type: "message", id, text }); else ensure();
  };
  const consent = (yes) => {
    if (!yes) setCk(RC.name, "", 0); // withdrawal: at once
    cb.checked = yes;
    sendCtl({ type: "consent", recognition: yes });
  };
  const download = async (fmt) => {
    try {
      const r = await fetch(C.export_url, {
        method: "POST", credentials: "omit", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ session: tok, format: fmt }),
      });
      if (!r.ok) throw r.status;
      const u = URL.createObjectURL(await r.blob()), a = h("a", { href: u, download: "chat-" + new Date().toISOString().slice(0, 10) + "." + fmt });
      W.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(u), 1e4);
    } catch (e) { say(T.err_generic); }
  };
  const grow = () => {
    ta.style.height = "";
    ta.style.height = Math.min(ta.scrollHeight + 2, 128) + "px";
    const n = ta.value.length, m = C.max_length;
    cnt.hidden = n < m * 0.9;
    cnt.textContent = n + " / " + m;
  };
  const showMenu = (on) => { mn.hidden = !on; mb.setAttribute("aria-expanded", on); if (!on) showConfirm(false); };
  const showConfirm = (on) => { cf.hidden = !on; fb.hidden = on; if (on) cf.lastChild.focus(); };

  const setOpen = (on) => {
    P.hidden = !on; W.classList.toggle("o", on); L.classList.remove("u");
    L.setAttribute("aria-expanded", on); L.setAttribute("aria-label", on ? T.close : T.open);
    L.replaceChildren(ic(on ? "x" : "chat"));
    flag(on);
  };
  const show = async (restoring) => {
    if (!C) await load();
    if (!C) return say(T.unavailable);
    setOpen(true); ensure(); scroll(true);
    if (restoring !== true) (ta.disabled ? mb : ta).focus();
  };
  const hide = () => { if (P && !P.hidden) setOpen(false), showMenu(false), L.focus(); };

  // -- DOM
  const build = () => {
    L.setAttribute("aria-label", T.open);
    mb = b(ic("dots"), () => showMenu(mn.hidden), { c: "ib", "aria-label": T.menu, "aria-expanded": "false", "aria-controls": "cw-menu" });
    dls = [b(T.download_json, () => download("json")), b(T.download_text, () => download("txt")), (fb = b(T.forget, () => showConfirm(true)))];
    cb = h("input", { type: "checkbox", "aria-describedby": "cw-rx", onchange: () => consent(cb.checked) });
    cb.checked = getCk(RC.name) != null;
    const priv = /^https?:/i.test(C.privacy_url) && C.privacy_url;
    mn = h("div", { c: "mn", id: "cw-menu", hidden: true },
      dls[0], dls[1],
      b(T.what_we_know, () => { showMenu(false); sendCtl({ type: "profile" }); ta.focus(); }),
      h("label", {}, cb, String(T.remember_me).replace("%(months)s", RC.months)),
      h("p", { c: "x", id: "cw-rx" }, T.remember_explain, " ", priv && h("a", { href: priv, target: "_blank", rel: "noopener" }, T.privacy)),
      fb,
      (cf = h("div", { c: "cf", hidden: true }, h("p", {}, T.forget_confirm),
        b(T.forget_yes, () => { showMenu(false); sendCtl({ type: "forget" }); ta.focus(); }, { c: "bt dg" }),
        b(T.cancel, () => { showConfirm(false); fb.focus(); }, { c: "bt" }))));
    ta = h("textarea", { rows: 1, maxlength: C.max_length, "aria-label": T.message_label, "aria-describedby": "cw-ct", oninput: grow,
      onkeydown: (e) => { if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); submit(); } } });
    sendB = h("button", { type: "submit", c: "sd", "aria-label": T.send }, ic("send"));
    ty = h("div", { c: "ty" }, h("i"), h("i"), h("i"), h("span", { c: "sr" }, T.typing));
    ty.p = 1;
    log = h("div", { c: "lg", role: "log", "aria-live": "polite", "aria-relevant": "additions" });
    if (C.greeting) { greet = row("assistant"); greet.b.textContent = C.greeting; greet.seq = -1; log.append(greet); }
    sc = h("div", { c: "sc", onscroll: () => (stick = sc.scrollHeight - sc.scrollTop - sc.clientHeight < 60) }, log);
    P = h("div", { c: "p", id: "cw-panel", role: "dialog", "aria-modal": "false", "aria-labelledby": "cw-title", lang: C.lang || LANG, hidden: true },
      h("div", { c: "hd" }, h("h2", { id: "cw-title" }, T.title), mb, b(ic("x"), hide, { c: "ib", "aria-label": T.close })),
      mn,
      (st = h("div", { c: "st", hidden: true })),
      (bn = h("div", { c: "bn", hidden: true })),
      sc,
      (hp = h("div", { c: "hp" }, b(T.talk_to_person, () => sendCtl({ type: "handover", reason: "visitor asked for a person" }), { c: "bt" }))),
      h("form", { onsubmit: (e) => { e.preventDefault(); submit(); ta.focus(); } }, ta, sendB),
      (cnt = h("div", { c: "ct", id: "cw-ct", hidden: true })));
    W.append(P);
    setState("bot");
    dls.forEach((x) => (x.disabled = true));
  };

  const load = () => (loading = loading || fetch(ORIGIN + "/widget/v1/" + encodeURIComponent(SITE) + "/config.json?lang=" + LANG, { credentials: "omit" })
    .then((r) => { if (!r.ok) throw r.status; return r.json(); })
    .then((c) => { C = c; SC = c.session_cookie; RC = c.recognition_cookie; T = Object.assign(T, c.strings); build(); })
    .catch(() => { loading = null; }));

  const init = () => {
    const host = h("div", { id: "cw-root" });
    R = host.attachShadow({ mode: "open" });
    if (R.adoptedStyleSheets && window.CSSStyleSheet && CSSStyleSheet.prototype.replaceSync) {
      const sheet = new CSSStyleSheet(); sheet.replaceSync(CSS); R.adoptedStyleSheets = [sheet]; // immune to style-src CSP
    } else R.append(h("style", {}, CSS));
    L = b(ic("chat"), () => (P && !P.hidden ? hide() : show()), { c: "l", "aria-label": T.open, "aria-expanded": "false", "aria-controls": "cw-panel" });
    A = h("div", { c: "sr", "aria-live": "assertive" });
    W = h("div", { c: "w", onkeydown: (e) => {
      if (e.key !== "Escape" || !P || P.hidden) return;
      if (!mn.hidden) { showMenu(false); mb.focus(); } else hide();
    } }, L, A);
    R.append(W);
    document.body.append(host);
    load().then(() => {
      if (!C || getCk(SC.name) == null) return; // no cookie: launcher only
      connect();
      if (flag() == 1) show(true);
    });
    addEventListener("online", () => { if (timer) connect(); });
  };

  window.__cwWidget = {
    get state() { return state; },
    get connected() { return ready; },
    get open() { return !!P && !P.hidden; },
    show, hide,
  };
  document.body ? init() : document.addEventListener("DOMContentLoaded", init);
})();
