#!/bin/sh
# Prints the next countdown of a feed, for a status bar (i3blocks, waybar, tmux, polybar):
#   🎄 Christmas: 33 days
# Usage: next-countdown.sh [FEED] ; TMINUS_URL defaults to http://127.0.0.1:8080.
# The one-liner it wraps:
#   curl -s "$TMINUS_URL/feeds/holidays.json?limit=1" | python3 -c 'import json,sys; c=json.load(sys.stdin)["countdowns"][0]; print(c["title"] + ": " + c["text"])'
feed=${1:-holidays}
zone=$(cat /etc/timezone 2>/dev/null || echo UTC)
curl -sf "${TMINUS_URL:-http://127.0.0.1:8080}/feeds/$feed.json?limit=1&tz=$zone" \
  | python3 -c 'import json,sys; c=json.load(sys.stdin)["countdowns"][0]; print(c["title"] + ": " + c["text"])'
