"""A real SMTP server for the tests (Debian's python3-aiosmtpd): every message
it accepts is written to FOLDER as one JSON file (envelope, headers and the
decoded text and HTML parts), named so that files sort in arrival order.

usage: python3 smtp-sink.py PORT FOLDER [CERT KEY]   (prints "ready" once listening)
With CERT and KEY (PEM files) the server offers STARTTLS and refuses mail
before it ("530 Must issue a STARTTLS command first"), so a delivered message
proves the client upgraded.
"""
import asyncio
import email
import email.policy
import json
import os
import ssl
import sys
import time

from aiosmtpd.controller import Controller

port, folder = int(sys.argv[1]), sys.argv[2]
os.makedirs(folder, exist_ok=True)
count = 0


class Sink:
    async def handle_DATA(self, server, session, envelope):
        global count
        msg = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        text = msg.get_body(preferencelist=("plain",))
        html = msg.get_body(preferencelist=("html",))
        record = {
            "mailFrom": envelope.mail_from,
            "rcptTos": envelope.rcpt_tos,
            "from": str(msg["From"]),
            "to": str(msg["To"]),
            "subject": str(msg["Subject"]),
            "messageId": str(msg["Message-ID"]),
            "listUnsubscribe": str(msg["List-Unsubscribe"]) if msg["List-Unsubscribe"] else None,
            "listUnsubscribePost": str(msg["List-Unsubscribe-Post"]) if msg["List-Unsubscribe-Post"] else None,
            "contentLanguage": str(msg["Content-Language"]) if msg["Content-Language"] else None,
            "text": text.get_content() if text else None,
            "html": html.get_content() if html else None,
        }
        count += 1
        name = os.path.join(folder, "%020d-%06d.json" % (time.time_ns(), count))
        with open(name + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(name + ".tmp", name)
        return "250 Message accepted for delivery"


tls = {}
if len(sys.argv) > 4:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(sys.argv[3], sys.argv[4])
    tls = {"tls_context": context, "require_starttls": True}
controller = Controller(Sink(), hostname="127.0.0.1", port=port, **tls)
controller.start()
print("ready", flush=True)
try:
    asyncio.run(asyncio.Event().wait())
finally:
    controller.stop()
