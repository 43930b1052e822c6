import json
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, HTTPServer

from notifyd import Notifyd, WebhookVerificationError, verify_webhook

from .harness import NOTIFYD_URL, create_project, until

received = []


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        received.append((dict(self.headers.items()), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


class WebhookVerifierTest(unittest.TestCase):
    def setUp(self):
        self.server = HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def tearDown(self):
        self.server.shutdown()
        self.server.server_close()

    def test_a_real_delivery_verifies_and_a_tampered_one_does_not(self):
        notifyd = Notifyd(NOTIFYD_URL, create_project())
        url = "http://127.0.0.1:%d/notifyd" % self.server.server_address[1]
        webhook = notifyd.webhooks.create({"url": url, "events": ["job.sent"]})
        self.assertEqual([w["id"] for w in notifyd.webhooks.list()["webhooks"]], [webhook["id"]])
        sent = notifyd.send({"to": "jane@example.com", "channels": ["email"], "subject": "Hi", "body": "Hello"})
        job_id = sent["job_ids"][0]
        headers, body = until(lambda: next((r for r in received if job_id.encode() in r[1]), None))

        event = verify_webhook(webhook["secret"], headers, body)
        self.assertEqual(event["type"], "job.sent")
        self.assertIn(job_id, json.dumps(event["data"]))
        verify_webhook(["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", webhook["secret"]], headers, body)
        with self.assertRaises(WebhookVerificationError):
            verify_webhook(webhook["secret"], headers, body.replace(b"job.sent", b"job.failed"))
        with self.assertRaises(WebhookVerificationError):
            verify_webhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", headers, body)
        with self.assertRaisesRegex(WebhookVerificationError, "timestamp"):
            verify_webhook(webhook["secret"], headers, body, now=time.time() + 3600)


if __name__ == "__main__":
    unittest.main()
