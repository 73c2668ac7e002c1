#!/usr/bin/env bash
# Starts the built gateway on a fresh embedded database, reads the demo
# organization over HTTP, and checks that SIGTERM ends it cleanly.
set -euo pipefail
data_dir=$(mktemp -d)
log=$(mktemp)
PORT=3917 HOST=127.0.0.1 DATA_DIR="$data_dir" node apps/gateway/dist/main.js >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$data_dir" "$log"' EXIT
for _ in $(seq 1 100); do curl -fs -o /dev/null http://127.0.0.1:3917/healthz && break; sleep 0.2; done
curl -fs http://127.0.0.1:3917/readyz
curl -fs -H 'x-organization-slug: demo' http://127.0.0.1:3917/api/v1/public/organization | grep -q '"slug":"demo"'
curl -fs -o /dev/null http://127.0.0.1:3917/api/v1/openapi.json
# The hosted app (built before the gateway): its page and every script the page names (the entry
# and the chunks it preloads).
scripts=$(curl -fs http://127.0.0.1:3917/hosted/demo/account/sign-in | grep -o '/hosted/_app/assets/[^"]*\.js')
[ -n "$scripts" ]
for script in $scripts; do curl -fs -o /dev/null "http://127.0.0.1:3917$script"; done
kill -TERM "$pid"
wait "$pid"
grep -q '"msg":"gateway stopped"' "$log"
echo "smoke: ok"
