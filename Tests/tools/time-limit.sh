#!/usr/bin/env bash
# time-limit.sh SECONDS COMMAND…: runs COMMAND in a process group of its own and
# fails (exit 124) if it has not ended after SECONDS, first printing every
# thread's stack of each process still running in that group (gdb, when
# installed; else each thread's kernel wait channel), so that a hang costs
# minutes of CI instead of its whole budget and leaves the evidence in the log.
set -uo pipefail
limit=$1; shift
setsid "$@" &
leader=$!
trap 'kill -TERM -- "-$leader" 2>/dev/null' INT TERM
start=$SECONDS
while kill -0 "$leader" 2>/dev/null; do
  if (( SECONDS - start >= limit )); then
    echo "error: '$*' did not end within $limit s; the stacks of what still runs:" >&2
    for pid in $(pgrep -g "$leader"); do
      echo "==> pid $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | cut -c1-200)" >&2
      if command -v gdb > /dev/null; then
        gdb -p "$pid" -batch -ex 'thread apply all bt' 2>&1 | grep -E '^(Thread|#)' >&2
      else
        for task in /proc/"$pid"/task/*; do echo "  thread ${task##*/} $(cat "$task/comm") waits in $(cat "$task/wchan")" >&2; done
      fi
    done
    kill -KILL -- "-$leader" 2>/dev/null
    wait "$leader" 2>/dev/null
    exit 124
  fi
  sleep 1
done
wait "$leader"
