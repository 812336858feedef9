// "Download" (JSON or text) in the menu: the server's export of this conversation (POST, the
// token in the body, never in a URL), saved as chat-YYYY-MM-DD.json|txt. A failure is
// announced with the generic error.

import { element } from "./dom.js";

export function exportFileName(date, format) {
  return "chat-" + date.toISOString().slice(0, 10) + "." + format;
}

/** `container`: where the temporary download link is clicked (inside the shadow root). */
export async function downloadTranscript({ config, token, format, container, announce, strings: text }) {
  try {
    const response = await fetch(config.export_url, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ session: token, format }),
    });
    if (!response.ok) throw new Error("export " + response.status);
    const url = URL.createObjectURL(await response.blob());
    const anchor = element("a", { href: url, download: exportFileName(new Date(), format) });
    container.append(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch {
    announce(text.err_generic);
  }
}
