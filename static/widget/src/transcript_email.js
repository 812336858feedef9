// "E-mail me the conversation" (issue 18): the server sends the transcript to an e-mail
// address the visitor wrote in this conversation (never one typed into a form here), so the
// button needs no address field and cannot mail a stranger.

export async function emailTranscript({ config, token, announce, strings: text }) {
  try {
    const response = await fetch(config.transcript_email_url, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ session: token }),
    });
    if (response.status === 409) announce(text.email_transcript_none);
    else if (response.ok) announce(text.email_transcript_sent);
    else throw new Error("transcript e-mail " + response.status);
  } catch {
    announce(text.err_generic);
  }
}
