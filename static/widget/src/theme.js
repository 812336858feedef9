// The site's theme (config.theme, set in admin): primary colour, corner and colour scheme, as
// CSS variables and classes on the widget container, so the panel follows them too.

export function applyTheme(widget, theme) {
  if (/^#[0-9a-f]{6}$/i.test(theme.primary || "")) {
    widget.style.setProperty("--cw-primary", theme.primary);
  }
  widget.classList.toggle("position-left", theme.position === "left");
  widget.classList.remove("scheme-auto", "scheme-light", "scheme-dark");
  widget.classList.add("scheme-" + (/^(light|dark)$/.test(theme.scheme) ? theme.scheme : "auto"));
}
