// The widget's styles, adopted into its shadow root. Colours meet WCAG AA (4.5:1 for text):
// the primary colour is checked against white when a site saves it (chatwidget/theme.py);
// links inside messages take the text colour and are underlined, so they never depend on it.

const LIGHT = "--cw-bg:#fff;--cw-fg:#1a1a1a;--cw-muted:#555;--cw-bubble:#eef0f4;--cw-border:#ccc;" +
  "--cw-field:#767676;--cw-link:var(--cw-primary);--cw-focus:var(--cw-primary);--cw-hover:#e8ecf3";
const DARK = "--cw-bg:#1e1f22;--cw-fg:#ececec;--cw-muted:#b5b5b5;--cw-bubble:#2e3136;" +
  "--cw-border:#44474d;--cw-field:#8a8d93;--cw-link:#a8c1ff;--cw-focus:#a8c1ff;--cw-hover:#33363b";

// First paint: the launcher, the live region and the colour variables. Lives in the loader.
export const LAUNCHER_CSS = `:host{all:initial!important}
*{box-sizing:border-box}
[hidden]{display:none!important}
.widget{--cw-primary:#1f4fd1;${LIGHT};font:15px/1.45 system-ui,sans-serif;color:var(--cw-fg)}
.widget.scheme-dark{${DARK}}
@media (prefers-color-scheme:dark){.widget.scheme-auto{${DARK}}}
button,textarea,input{font:inherit;color:inherit}
button{cursor:pointer;border:0;background:none}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
:focus-visible{outline:3px solid var(--cw-focus);outline-offset:2px}
svg{width:24px;height:24px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.launcher{position:fixed;right:20px;bottom:20px;z-index:2147483646;display:flex;align-items:center;justify-content:center;gap:8px;min-width:56px;height:56px;padding:0 14px;border-radius:28px;background:var(--cw-primary);color:#fff;box-shadow:0 4px 14px #0005;font-weight:600}
.launcher:hover{background:color-mix(in srgb,var(--cw-primary) 85%,#000)}
.launcher svg{width:28px;height:28px;flex:none}
.launcher:focus-visible{outline-color:var(--cw-primary);box-shadow:0 0 0 2px #fff}
.position-left .launcher{right:auto;left:20px}
.has-unread:after{content:"";position:absolute;top:2px;right:2px;width:14px;height:14px;border-radius:50%;background:#c4001a;border:2px solid #fff}
@media (max-width:480px){.is-open .launcher{display:none}}
@media (prefers-reduced-motion:reduce){*{animation:none!important}}`;

// Everything else: loaded with the panel.
export const PANEL_CSS = `.panel{position:fixed;right:20px;bottom:88px;z-index:2147483647;width:380px;height:620px;max-width:calc(100vw - 40px);max-height:calc(100vh - 108px);display:flex;flex-direction:column;background:var(--cw-bg);border-radius:12px;box-shadow:0 8px 32px #0005;overflow:hidden;animation:cw-appear .2s}
.position-left .panel{right:auto;left:20px}
@keyframes cw-appear{from{opacity:0;transform:translateY(8px)}}
.panel-header{display:flex;align-items:center;padding:8px 6px 8px 16px;background:var(--cw-primary);color:#fff}
.panel-title{flex:1;min-width:0}
h2{margin:0;font-size:16px}
.disclosure{margin:2px 0 0;font-size:12px;line-height:1.3}
.icon-button,.send-button{display:grid;place-items:center}
.icon-button{width:40px;height:40px;border-radius:8px}
.icon-button:hover{background:#fff3}
.panel-header :focus-visible{outline-color:#fff;outline-offset:-3px}
.menu{padding:6px;border-bottom:1px solid var(--cw-border);max-height:65%;overflow:auto}
.menu>button{display:block;width:100%;text-align:left;padding:9px 10px;border-radius:6px}
.menu>button:hover{background:var(--cw-hover)}
.menu>button:disabled{color:var(--cw-muted);background:none;cursor:default}
label{display:flex;gap:10px;padding:9px 10px}
input{flex:none;margin:2px 0 0;width:18px;height:18px;accent-color:var(--cw-primary)}
.menu-note{margin:0 10px 8px 38px;font-size:13px;color:var(--cw-muted)}
a{color:var(--cw-link)}
.confirm{padding:8px 10px}.confirm p{margin:0 0 8px}.confirm button{margin-right:8px}
.pill-button{padding:6px 14px;border-radius:16px;border:1px solid var(--cw-link);color:var(--cw-link)}
.earlier:not([hidden]){display:block;margin:8px auto 4px}
.earlier[aria-busy=true]{opacity:.6;cursor:progress}
.pill-button.danger{background:#b00020;border-color:#b00020;color:#fff}
.status,.banner{padding:7px 16px;font-size:14px}
.status,.banner.waiting{background:#fff4d6;color:#5c4200}
.banner.human{background:#e3f5e9;color:#14532d}
.banner.closed{background:#eee;color:#333}
.email-offer{margin:0;padding:6px 16px;font-size:13px;background:#f6f6f6;color:#333}
.scroller{flex:1;overflow-y:auto;padding:14px 12px;overscroll-behavior:contain}
.transcript{display:flex;flex-direction:column;gap:10px}
.message{display:flex;flex-direction:column;align-items:flex-start;max-width:85%}
.bubble,.typing{padding:8px 12px;border-radius:14px;background:var(--cw-bubble);white-space:pre-wrap;overflow-wrap:anywhere}
.bubble.rich{white-space:normal}
.rich>:first-child{margin-top:0}.rich>:last-child{margin-bottom:0}
.rich p,.rich ul,.rich ol,.rich pre{margin:0 0 8px}.rich ul,.rich ol{padding-left:20px}
.rich a{color:inherit;text-decoration:underline}
code{font:13px/1.4 ui-monospace,monospace;background:#8882;border-radius:4px;padding:1px 4px}
pre{overflow-x:auto;white-space:pre}pre code{display:block;padding:6px 8px}
.visitor{align-self:flex-end;align-items:flex-end}
.visitor .bubble{background:var(--cw-primary);color:#fff}
.visitor.pending .bubble{box-shadow:inset 0 0 0 2px #fff8}
.visitor.failed .bubble{background:#6b6b6b}
.staff .bubble{background:#e3f5e9;color:#10381f}
.author{font-size:12px;color:var(--cw-muted);margin:0 6px 2px}
.system{align-self:center}
.system .bubble{background:none;font-size:13px;color:var(--cw-muted);text-align:center}
.note{margin:4px 6px 0;font-size:13px;color:var(--cw-muted)}
.transcript>.note{align-self:center;text-align:center}
.note.error{color:#b00020}
.scheme-dark .note.error{color:#ff8a8a}
@media (prefers-color-scheme:dark){.scheme-auto .note.error{color:#ff8a8a}}
.profile-card{padding:10px 12px;border:1px solid var(--cw-border);border-radius:10px;font-size:14px}
h3{margin:0 0 6px;font-size:14px}dl{margin:0 0 8px}dt{font-weight:600}dd{margin:0 0 4px}
.typing{display:flex;gap:4px;width:max-content;padding:13px 14px}
.typing i{width:7px;height:7px;border-radius:50%;background:var(--cw-muted);animation:cw-dot 1.2s infinite}
.typing i:nth-child(2){animation-delay:.2s}.typing i:nth-child(3){animation-delay:.4s}
@keyframes cw-dot{50%{opacity:.25}}
.cards{list-style:none;margin:6px 0 0;padding:2px 2px 6px;display:flex;gap:8px;overflow-x:auto;max-width:100%;scroll-snap-type:x proximity}
.card{flex:0 0 170px;scroll-snap-align:start;display:flex;flex-direction:column;border:1px solid var(--cw-border);border-radius:10px;overflow:hidden;background:var(--cw-bg);font-size:14px}
.card img{width:100%;height:110px;object-fit:cover;background:var(--cw-bubble)}
.card-body{display:flex;flex-direction:column;gap:3px;padding:8px 10px 10px;flex:1}
.card-title{font-weight:600;color:var(--cw-link);overflow-wrap:anywhere}
.card-price{font-weight:600}.card-stock{font-size:13px;color:var(--cw-muted)}
.card-add{margin-top:auto;min-height:36px;border-radius:8px;background:var(--cw-primary);color:#fff}
.card-price:empty,.card-stock:empty{display:none}
.card-variant{min-height:32px;border:1px solid var(--cw-border);border-radius:6px;background:var(--cw-bg);color:inherit;font:inherit;max-width:100%}
.card-add:disabled{background:#6b6b6b;cursor:default}
.choices{display:flex;flex-wrap:wrap;gap:6px;margin-top:6px}
.choice{min-height:36px;padding:6px 12px;border:1px solid var(--cw-primary);border-radius:18px;background:var(--cw-bg);color:var(--cw-fg)}
.choice:hover{background:var(--cw-hover)}
.handover-bar,.restart-bar{padding:0 12px 8px}
.rating{padding:4px 12px 8px}.rating p{margin:0 0 6px}.rating input{display:block;width:100%;box-sizing:border-box;margin:6px 0;padding:8px 10px;border:1px solid var(--cw-field);border-radius:8px;font-size:16px;background:var(--cw-bg);color:inherit}
.scores{display:flex;gap:6px}.score{min-width:36px;min-height:36px;border-radius:8px;border:1px solid var(--cw-field)}.score[aria-pressed=true]{background:var(--cw-primary);color:#fff;border-color:var(--cw-primary)}
.composer{display:flex;gap:8px;align-items:flex-end;padding:10px 12px 12px;border-top:1px solid var(--cw-border)}
textarea{flex:1;resize:none;height:44px;max-height:128px;overflow-y:hidden;padding:10px 12px;border:1px solid var(--cw-field);border-radius:10px;font-size:16px;background:var(--cw-bg)}
textarea:disabled{background:var(--cw-bubble);color:var(--cw-muted)}
::placeholder{color:var(--cw-muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.send-button{flex:none;width:44px;height:44px;border-radius:10px;background:var(--cw-primary);color:#fff}
.send-button:disabled{background:#6b6b6b}
.attach-button{flex:none;display:grid;place-items:center;width:44px;height:44px;border-radius:10px;border:1px solid var(--cw-field);background:var(--cw-bg);color:var(--cw-fg)}
.attach-button svg{width:22px;height:22px}
.attach-button:disabled{opacity:.5}
.attachment-image{display:block;max-width:min(220px,100%);max-height:220px;margin-top:6px;border-radius:10px;margin-left:auto}
.attachment-file{display:block;margin-top:4px;font-size:13px;color:var(--cw-muted);text-align:right}
.message progress{display:block;width:160px;margin:4px 0 0 auto}
.counter{padding:0 14px 6px;margin-top:-6px;font-size:12px;color:var(--cw-muted);text-align:right}
@media (max-width:480px){.panel{inset:0;width:auto;height:100vh;height:100dvh;max-width:none;max-height:none;border-radius:0}}`;
