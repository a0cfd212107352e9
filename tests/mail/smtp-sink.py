"""A real SMTP server for the tests (Debian's python3-aiosmtpd): every message
it accepts is written to FOLDER as one JSON file (envelope, headers and the
decoded text and HTML parts), named so that files sort in arrival order.

usage: python3 smtp-sink.py PORT FOLDER   (prints "ready" once listening)
"""
import asyncio
import email
import email.policy
import json
import os
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
            "text": text.get_content() if text else None,
            "html": html.get_content() if html else None,
        }
        count += 1
        name = os.path.join(folder, "%020d-%06d.json" % (time.time_ns(), count))
        with open(name + ".tmp", "w") as f:
            json.dump(record, f)
        os.rename(name + ".tmp", name)
        return "250 Message accepted for delivery"


controller = Controller(Sink(), hostname="127.0.0.1", port=port)
controller.start()
print("ready", flush=True)
try:
    asyncio.run(asyncio.Event().wait())
finally:
    controller.stop()
