"""The running notifyd the suite talks to: `node scripts/with-notifyd.mjs` (repository root)
starts one and sets NOTIFYD_URL and NOTIFYD_ADMIN_API_KEY."""
import itertools
import json
import os
import time
import urllib.request

NOTIFYD_URL = os.environ.get("NOTIFYD_URL", "")
ADMIN_KEY = os.environ.get("NOTIFYD_ADMIN_API_KEY", "")
if not NOTIFYD_URL or not ADMIN_KEY:
    raise RuntimeError("NOTIFYD_URL and NOTIFYD_ADMIN_API_KEY are unset: run `node scripts/with-notifyd.mjs python3 -m unittest discover -s clients/python` from the repository root")

_counter = itertools.count(1)


def create_project(rate_limit_per_min=None):
    """A fresh project through the admin API; returns its key."""
    project_id = "py-%d-%d" % (os.getpid(), next(_counter))
    body = {"id": project_id, "name": "Python client " + project_id}
    if rate_limit_per_min:
        body["rate_limit_per_min"] = rate_limit_per_min
    request = urllib.request.Request(NOTIFYD_URL + "/v1/admin/projects", data=json.dumps(body).encode(), headers={"x-api-key": ADMIN_KEY, "content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())["project"]["api_key"]


def until(read, seconds=20.0):
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if value is not None:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.1)
