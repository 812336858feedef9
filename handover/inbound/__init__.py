"""Replies by e-mail (issue 32): the visitor answers a continuation e-mail and the answer
becomes a visitor turn of the case's conversation.

- message: the raw RFC 822 message read (sender, reply addresses, the new text)
- receive: the checks and the stored turn (`inbound_mail_receive`), for every transport
- imap: the mailbox poller (Celery beat); the HTTP endpoint is handover.views.inbound_email

Above handover.services (it uses the case transitions and the continuation's records), below
the transports.
"""
