// Site admin: the widget theme preview follows the colour and label fields while editing.
// Served as a file, not inline: admin runs under a script-src 'self' CSP.
(() => {
  // live preview while editing: the same contrast formula as chatwidget/theme.py
  const preview = document.getElementById("theme-preview");
  const field = (name) => document.getElementById("id_" + name);
  const luminance = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const update = () => {
    const colour = field("theme_primary") && field("theme_primary").value.trim();
    if (/^#[0-9a-f]{6}$/i.test(colour || "")) {
      preview.style.setProperty("--cw-primary", colour);
      preview.querySelector('[data-preview="contrast"]').textContent =
        (1.05 / (luminance(colour) + 0.05)).toFixed(2);
    }
    if (field("launcher_label")) {
      preview.querySelector('[data-preview="label"]').textContent = field("launcher_label").value;
    }
  };
  ["theme_primary", "launcher_label"].forEach((name) => field(name) && field(name).addEventListener("input", update));
})();
