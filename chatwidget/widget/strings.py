"""UI strings of the chat widget (static/widget/src/, built into static/widget/v1/).

The config view sends them, translated into the visitor's language, as
``{k: str(v) for k, v in WIDGET_STRINGS.items()}`` in the ``strings`` field of
``/widget/v1/<site>/config.json``. The widget renders every string with
``textContent``, so they are plain text, never HTML.

Placeholders are filled in by the widget, not by Django: ``%(months)s`` in
``remember_me`` (from ``recognition_cookie.months``). Keep them verbatim in
translations.

``err_<code>`` is the fallback for an ``error`` frame without a ``message``;
unknown codes fall back to ``err_generic``.
"""

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

WIDGET_STRINGS: dict[str, Promise] = {
    # launcher and panel
    "title": _("Chat with us"),
    # the AI disclosure (EU AI Act, Art. 50), unless the site sets its own sentence
    "ai_disclosure": _(
        "You are chatting with an AI assistant. A person from the team can take over."
    ),
    "open": _("Open chat"),
    "close": _("Close chat"),
    "new_message": _("new message"),
    "unavailable": _("The chat is not available right now."),
    "menu": _("Options"),
    # composer
    "message_label": _("Your message"),
    "placeholder": _("Type your message…"),
    "send": _("Send"),
    # conversation
    "you": _("You"),
    "assistant": _("Assistant"),
    "staff": _("Support team"),
    "typing": _("The assistant is typing…"),
    "transcript": _("Conversation"),
    "show_earlier": _("Show earlier messages"),  # the top of a long conversation (history)
    "earlier_loaded": _("Earlier messages loaded."),  # announced once per page
    "removed_hint": _(
        "Some details were removed for your safety (for example card numbers or "
        "passwords). Please never share them in the chat."
    ),
    # conversation state banners
    "talk_to_person": _("Talk to a person"),
    # neutral: true in staff hours and outside them (the notice in the transcript says which)
    "waiting": _("Waiting for a member of the team."),
    "human": _("You are now chatting with a member of the team."),
    "closed": _("This conversation has been closed."),
    # under the banner while a person is to answer, until the visitor wrote an address
    "email_offer": _(
        "Have to go? Write your e-mail address in the chat and the team's answer will follow "
        "by e-mail."
    ),
    "new_conversation": _("Start a new conversation"),
    # connection status
    "reconnecting": _("Reconnecting…"),
    "offline": _("You are offline. Your messages will be sent when the connection is back."),
    # menu: export, erasure, recognition consent, profile
    "download_json": _("Download conversation (JSON)"),
    "download_text": _("Download conversation (text)"),
    "email_transcript": _("E-mail me the conversation"),
    "email_transcript_sent": _("The conversation is on its way to the e-mail address you gave."),
    "email_transcript_confirm": _(
        "We sent a link to the e-mail address you gave. Open it to receive the conversation."
    ),
    "email_transcript_limited": _(
        "We cannot send another e-mail to this address right now. If you got a link from "
        "us, open it; otherwise please try again later."
    ),
    "email_transcript_none": _(
        "Write your e-mail address in the chat first: we send the conversation only to an "
        "address you gave here."
    ),
    "forget": _("Delete this conversation"),
    "forget_confirm": _(
        "Delete this conversation and everything stored with it? This cannot be undone."
    ),
    "forget_yes": _("Delete"),
    "cancel": _("Cancel"),
    "forgotten": _("The conversation has been deleted."),
    "remember_me": _("Remember me on this device for %(months)s months"),
    "remember_explain": _(
        "Stores a cookie on this device and a short profile with us, so the assistant "
        "recognises you next time. You can switch this off at any time."
    ),
    "privacy": _("Privacy policy"),
    "what_we_know": _("What do you know about me?"),
    "profile_title": _("What we have stored about you"),
    "nothing_stored": _("Nothing is stored about you."),
    "forget_me": _("Forget me"),
    # satisfaction rating after the team resolved the conversation (static/widget/src/rating.js)
    "rating_question": _("How happy are you with the help you got?"),
    "rating_score": _("%(n)s of 5"),
    "rating_comment": _("Anything you want to add? (optional)"),
    "rating_send": _("Send rating"),
    "rating_thanks": _("Thank you for your rating!"),
    # error frames, by code
    "err_too_long": _("Your message is too long. Please shorten it."),
    "err_rate_limited": _("You are sending messages too quickly. Please wait a moment."),
    "err_model_unavailable": _(
        "The assistant is not available right now. Please try again later or talk to a person."
    ),
    "err_bad_frame": _("Your message could not be read. Please try again."),
    "err_closed": _("This conversation has been closed."),
    "err_generic": _("Something went wrong. Please try again."),
    "retry": _("Ask again"),  # the button under a message the assistant could not answer
    # an answer's product cards and quick replies (issue 33, static/widget/src/rich.js)
    "cards_label": _("Products"),
    "add_to_cart": _("Add to cart"),
    "stock_in": _("In stock"),
    "stock_out": _("Out of stock"),
    "stock_preorder": _("Pre-order"),
    "choices_label": _("Suggested replies"),
    "variant": _("Variant"),  # the label of a product card's size or colour picker
    # a photo or file from the visitor (issue 33, static/widget/src/upload.js)
    "attach": _("Attach a photo or file"),
    "attachment": _("Attachment"),
    "uploading": _("Uploading…"),
    "upload_err_too_large": _("This file is too large."),
    "upload_err_bad_type": _("Please send a photo (JPEG, PNG, WebP, HEIC) or a PDF."),
    "upload_err_too_many_pixels": _("This image is too large."),
    "upload_err_unreadable": _("This file could not be read."),
    "upload_err_too_many": _("No more files can be added to this conversation."),
    "upload_err_rate_limited": _("You are sending files too quickly. Please wait a moment."),
}

# German reference translations, for whoever writes locale/de/LC_MESSAGES/django.po.
# Not used at run time. Keys match WIDGET_STRINGS.
_DE_REFERENCE: dict[str, str] = {
    "title": "Chatten Sie mit uns",
    "ai_disclosure": "Sie chatten mit einem KI-Assistenten. Eine Person aus dem Team kann übernehmen.",
    "open": "Chat öffnen",
    "close": "Chat schließen",
    "new_message": "neue Nachricht",
    "unavailable": "Der Chat ist gerade nicht verfügbar.",
    "menu": "Optionen",
    "message_label": "Ihre Nachricht",
    "placeholder": "Nachricht eingeben…",
    "send": "Senden",
    "you": "Sie",
    "assistant": "Assistent",
    "staff": "Support-Team",
    "typing": "Der Assistent schreibt…",
    "transcript": "Gespräch",
    "show_earlier": "Frühere Nachrichten anzeigen",
    "earlier_loaded": "Frühere Nachrichten geladen.",
    "removed_hint": (
        "Zu Ihrer Sicherheit wurden einige Angaben entfernt (zum Beispiel Kartennummern "
        "oder Passwörter). Bitte teilen Sie diese nie im Chat."
    ),
    "talk_to_person": "Mit einem Menschen sprechen",
    "waiting": "Warten auf ein Mitglied unseres Teams.",
    "human": "Sie chatten jetzt mit einem Mitglied unseres Teams.",
    "closed": "Dieses Gespräch wurde beendet.",
    "email_offer": (
        "Sie müssen gehen? Schreiben Sie Ihre E-Mail-Adresse in den Chat, dann kommt die "
        "Antwort des Teams per E-Mail."
    ),
    "new_conversation": "Neues Gespräch beginnen",
    "reconnecting": "Verbindung wird wiederhergestellt…",
    "offline": "Sie sind offline. Ihre Nachrichten werden gesendet, sobald die Verbindung wieder steht.",
    "download_json": "Gespräch herunterladen (JSON)",
    "download_text": "Gespräch herunterladen (Text)",
    "email_transcript": "Gespräch per E-Mail senden",
    "email_transcript_sent": "Das Gespräch ist unterwegs an die E-Mail-Adresse, die Sie angegeben haben.",
    "email_transcript_confirm": (
        "Wir haben einen Link an die E-Mail-Adresse gesendet, die Sie angegeben haben. Öffnen "
        "Sie ihn, um das Gespräch zu erhalten."
    ),
    "email_transcript_limited": (
        "Wir können gerade keine weitere E-Mail an diese Adresse senden. Wenn Sie einen Link "
        "von uns bekommen haben, öffnen Sie ihn; sonst versuchen Sie es bitte später erneut."
    ),
    "email_transcript_none": (
        "Schreiben Sie zuerst Ihre E-Mail-Adresse in den Chat: Wir senden das Gespräch nur an "
        "eine Adresse, die Sie hier angegeben haben."
    ),
    "forget": "Dieses Gespräch löschen",
    "forget_confirm": (
        "Dieses Gespräch und alles dazu Gespeicherte löschen? Das kann nicht rückgängig "
        "gemacht werden."
    ),
    "forget_yes": "Löschen",
    "cancel": "Abbrechen",
    "forgotten": "Das Gespräch wurde gelöscht.",
    "remember_me": "Mich auf diesem Gerät %(months)s Monate lang wiedererkennen",
    "remember_explain": (
        "Speichert ein Cookie auf diesem Gerät und ein kurzes Profil bei uns, damit der "
        "Assistent Sie beim nächsten Mal wiedererkennt. Sie können das jederzeit abschalten."
    ),
    "privacy": "Datenschutzerklärung",
    "what_we_know": "Was wissen Sie über mich?",
    "profile_title": "Was wir über Sie gespeichert haben",
    "nothing_stored": "Über Sie ist nichts gespeichert.",
    "forget_me": "Mich vergessen",
    "rating_question": "Wie zufrieden sind Sie mit der Hilfe?",
    "rating_score": "%(n)s von 5",
    "rating_comment": "Möchten Sie noch etwas ergänzen? (optional)",
    "rating_send": "Bewertung senden",
    "rating_thanks": "Danke für Ihre Bewertung!",
    "err_too_long": "Ihre Nachricht ist zu lang. Bitte kürzen Sie sie.",
    "err_rate_limited": "Sie senden Nachrichten zu schnell. Bitte warten Sie einen Moment.",
    "err_model_unavailable": (
        "Der Assistent ist gerade nicht verfügbar. Bitte versuchen Sie es später erneut "
        "oder sprechen Sie mit einem Menschen."
    ),
    "err_bad_frame": "Ihre Nachricht konnte nicht gelesen werden. Bitte versuchen Sie es erneut.",
    "err_closed": "Dieses Gespräch wurde beendet.",
    "err_generic": "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
    "retry": "Erneut fragen",
    "cards_label": "Produkte",
    "add_to_cart": "In den Warenkorb",
    "stock_in": "Auf Lager",
    "stock_out": "Ausverkauft",
    "stock_preorder": "Vorbestellbar",
    "choices_label": "Antwortvorschläge",
    "variant": "Variante",
    "attach": "Foto oder Datei anhängen",
    "attachment": "Anhang",
    "uploading": "Wird hochgeladen …",
    "upload_err_too_large": "Diese Datei ist zu groß.",
    "upload_err_bad_type": "Bitte senden Sie ein Foto (JPEG, PNG, WebP, HEIC) oder ein PDF.",
    "upload_err_too_many_pixels": "Dieses Bild ist zu groß.",
    "upload_err_unreadable": "Diese Datei konnte nicht gelesen werden.",
    "upload_err_too_many": "Diesem Gespräch können keine weiteren Dateien hinzugefügt werden.",
    "upload_err_rate_limited": "Sie senden Dateien zu schnell. Bitte warten Sie einen Moment.",
}
