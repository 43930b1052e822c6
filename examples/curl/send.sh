#!/usr/bin/env bash
# Send one SMS with curl and wait up to 10 s for the provider's answer.
#   NOTIFYD_URL=http://localhost:3400 NOTIFYD_API_KEY=sk_… ./send.sh +33612345678
# The idempotency key makes a retried call safe: the same key returns the same job.
set -euo pipefail
to="${1:?usage: send.sh <E.164 phone number>}"

curl --fail-with-body --silent --show-error \
  -X POST "${NOTIFYD_URL:-http://localhost:3400}/v1/send" \
  -H "Authorization: Bearer ${NOTIFYD_API_KEY:?set NOTIFYD_API_KEY to a project key (sk_…)}" \
  -H 'Content-Type: application/json' \
  -d @- <<JSON
{
  "channels": ["sms"],
  "to": "${to}",
  "body": "Your code is 123456",
  "priority": "critical",
  "idempotency_key": "login-code-${to}-$(date +%Y%m%d%H%M)",
  "wait": "10s"
}
JSON
echo
