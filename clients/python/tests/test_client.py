import re
import time
import unittest
import urllib.error
import urllib.request

from notifyd import Notifyd, NotifydError, retry_after_seconds

from .harness import NOTIFYD_URL, create_project


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.key = create_project()
        cls.notifyd = Notifyd(NOTIFYD_URL, cls.key)
        cls.notifyd.subscribers.upsert({"id": "jane", "email": "jane@example.com", "phone": "+33600000902"})

    def test_send_wait_and_read_the_job(self):
        sent = self.notifyd.send({"subscriber_id": "jane", "channels": ["email", "sms"], "subject": "Hi {{name}}", "body": "Order {{order}} shipped", "vars": {"name": "Jane", "order": "A-1"}})
        self.assertEqual(len(sent["job_ids"]), 2)
        jobs = [self.notifyd.jobs.wait(job_id, timeout=30) for job_id in sent["job_ids"]]
        self.assertEqual(sorted((j["channel"], j["status"]) for j in jobs), [("email", "sent"), ("sms", "sent")])
        job = self.notifyd.jobs.get(sent["job_ids"][0])
        self.assertEqual((job["id"], job["subscriber_id"], job["status"]), (sent["job_ids"][0], "jane", "sent"))

    def test_a_422_is_a_notifyd_error_naming_the_field(self):
        with self.assertRaises(NotifydError) as caught:
            self.notifyd.send({"subscriber_id": "jane", "channels": ["pigeon"], "body": "x"})
        error = caught.exception
        self.assertEqual((error.status, error.code), (422, "validation_failed"))
        self.assertIn("channels", error.message)
        self.assertRegex(error.request_id or "", r"^[A-Za-z0-9._:-]+$")

    def test_a_generated_idempotency_key_makes_a_retried_send_queue_nothing_twice(self):
        bodies = []
        state = {"dropped": False}

        def lossy(request, timeout):
            bodies.append(request.data)
            response = urllib.request.urlopen(request, timeout=timeout)
            if not state["dropped"]:
                # notifyd queued the job; its answer is lost on the way back.
                state["dropped"] = True
                response.read()
                response.close()
                raise ConnectionResetError("connection reset by peer")
            return response

        client = Notifyd(NOTIFYD_URL, self.key, retry_base=0.01, opener=lossy)
        sent = client.send({"subscriber_id": "jane", "channels": ["email"], "subject": "s", "body": "once"})
        self.assertEqual(len(bodies), 2)
        keys = [re.search(rb'"idempotency_key": "([^"]+)"', b).group(1) for b in bodies]
        self.assertRegex(keys[0].decode(), r"^ntfy_[0-9a-f-]{36}$")
        self.assertEqual(keys[1], keys[0])
        self.assertTrue(sent["deduplicated"])

    def test_a_call_that_is_not_idempotent_is_not_retried_after_a_network_error(self):
        calls = []

        def down(request, timeout):
            calls.append(request)
            raise ConnectionRefusedError("connection refused")

        client = Notifyd(NOTIFYD_URL, self.key, retry_base=0.01, opener=down)
        with self.assertRaises(NotifydError) as caught:
            client.suppressions.create({"channel": "email", "address": "x@example.com"})
        self.assertEqual(caught.exception.code, "network_error")
        self.assertEqual(len(calls), 1)

    def test_subscribers_preferences_templates_and_suppressions(self):
        self.assertEqual(self.notifyd.subscribers.get("jane")["email"], "jane@example.com")
        self.assertEqual([s["id"] for s in self.notifyd.subscribers.list(q="jane")["items"]], ["jane"])
        self.notifyd.preferences.set("jane", {"preferences": [{"channel": "sms", "enabled": False}]})
        prefs = self.notifyd.preferences.get("jane")["preferences"]
        self.assertTrue(any(p["channel"] == "sms" and p["enabled"] is False for p in prefs))
        self.notifyd.templates.upsert({"id": "welcome", "channel": "email", "subject": "Welcome {{name}}", "body": "Hello {{name}}"})
        self.assertEqual(self.notifyd.templates.preview("welcome", {"vars": {"name": "Jane"}})["subject"], "Welcome Jane")
        created = self.notifyd.suppressions.create({"channel": "email", "address": "blocked@example.com"})
        suppression_id = created["suppression"]["id"]
        self.assertEqual(self.notifyd.suppressions.get(suppression_id)["suppression"]["address"], "blocked@example.com")
        self.notifyd.suppressions.release(suppression_id)
        with self.assertRaises(NotifydError) as caught:
            self.notifyd.subscribers.get("nobody")
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "not_found"))


    def test_cancel_a_scheduled_job_and_wait_timeout(self):
        later = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3600))
        scheduled = self.notifyd.schedule({"subscriber_id": "jane", "channels": ["email"], "subject": "s", "body": "later", "scheduled_at": later})
        job_id = scheduled["job_ids"][0]
        with self.assertRaises(NotifydError) as caught:
            self.notifyd.jobs.wait(job_id, timeout=1)
        self.assertEqual(caught.exception.code, "wait_timeout")
        self.assertEqual(caught.exception.details["job"]["status"], "pending")
        self.assertEqual(self.notifyd.jobs.cancel(job_id)["id"], job_id)
        self.assertEqual(self.notifyd.jobs.get(job_id)["status"], "cancelled")

    def test_batch(self):
        self.notifyd.subscribers.bulk_upsert({"subscribers": [{"id": "b1", "email": "b1@example.com"}, {"id": "b2", "email": "b2@example.com"}]})
        request = {"subscribers": ["b1", "b2", "ghost"], "channels": ["email"], "subject": "Sale", "body": "30 % off", "idempotency_key": "sale-1"}
        first = self.notifyd.batch(request)
        self.assertEqual((first["jobs_created"], first["jobs_without_address"]), (2, 1))
        again = self.notifyd.batch(request)
        self.assertEqual((again["jobs_created"], again["jobs_deduplicated"]), (0, 2))


class RetryTest(unittest.TestCase):
    def test_retry_after_reads_seconds_and_dates(self):
        self.assertEqual(retry_after_seconds("7"), 7.0)
        self.assertEqual(retry_after_seconds("Thu, 01 Jan 1970 00:01:00 GMT", now=0), 60.0)
        self.assertIsNone(retry_after_seconds("soon"))
        self.assertIsNone(retry_after_seconds(None))

    def test_a_429_is_retried_after_retry_after(self):
        seen = []

        def recording(request, timeout):
            try:
                response = urllib.request.urlopen(request, timeout=timeout)
            except urllib.error.HTTPError as err:
                seen.append((err.code, err.headers.get("retry-after"), time.monotonic()))
                raise
            seen.append((response.status, None, time.monotonic()))
            return response

        client = Notifyd(NOTIFYD_URL, create_project(rate_limit_per_min=2), max_retry_delay=61, opener=recording)
        client.subscribers.upsert({"id": "a"})
        client.subscribers.upsert({"id": "b"})
        self.assertEqual(client.subscribers.get("a")["id"], "a")
        statuses = [s[0] for s in seen]
        self.assertIn(429, statuses, seen)
        refused = statuses.index(429)
        retry_after = int(seen[refused][1])
        self.assertTrue(1 <= retry_after <= 60)
        self.assertEqual(seen[refused + 1][0], 200)
        self.assertGreaterEqual(seen[refused + 1][2] - seen[refused][2], retry_after - 1)

    def test_a_429_longer_than_allowed_reaches_the_caller(self):
        client = Notifyd(NOTIFYD_URL, create_project(rate_limit_per_min=1), max_retry_delay=0)
        client.subscribers.upsert({"id": "a"})
        with self.assertRaises(NotifydError) as caught:
            client.subscribers.get("a")
        self.assertEqual((caught.exception.status, caught.exception.code), (429, "rate_limited"))
        self.assertIsInstance(caught.exception.details.get("retry_after"), int)


if __name__ == "__main__":
    unittest.main()
