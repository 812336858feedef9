// "E-mail me the conversation" (issues 18, 25): the server sends the transcript to an e-mail
// address the visitor wrote in this conversation (never one typed into a form here), and
// only once that address confirmed it: the first answer is usually "a link is on its way".

export async function emailTranscript({ config, token, announce, strings: text }) {
  try {
    const response = await fetch(config.transcript_email_url, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ session: token }),
    });
    if (response.status === 409) announce(text.email_transcript_none);
    else if (response.status === 429) announce(text.email_transcript_limited);
    else if (response.ok) {
      const data = await response.json().catch(() => ({}));
      announce(data.status === "sent" ? text.email_transcript_sent : text.email_transcript_confirm);
    } else throw new Error("transcript e-mail " + response.status);
  } catch {
    announce(text.err_generic);
  }
}
