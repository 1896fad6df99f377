#!/usr/bin/env bash
# `make test-postgres`: the store suite and the replica tests against a real,
# throwaway PostgreSQL (Tests/postgres/cluster.sh starts it and stops it at the
# end, failures included). Ends with `test-postgres: N passed, M failed`,
# counting every check of both parts.
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${TMINUS_TEST_POSTGRES:-}" ]; then exec bash Tests/postgres/cluster.sh bash "$0" "$@"; fi
passed=0; failed=0
log=$(mktemp)
swift test ${SWIFT_FLAGS:-} --filter 'CountdownStoreTests\.(ImportTests|RoundTripTests|StoreContractTests|StorePrimitivesTests|FeedSettingsUpgradeTests|OwnerUpgradeTests|PermissionMatrixTests|PeopleTests|InvitationStandingTests|BoardCreditTests|StorageQuotaTests|CountdownOfAnUnseenFeedTests|DuplicateSourcesTests|FocusSessionTests|PlacedRowsTests)' 2>&1 | tee "$log" | grep -E '^(✘|✔ Test run|✘ Test run)' || true
cases=$(grep -E '^✔ Test ' "$log" | grep -vc '^✔ Test run')
broken=$(grep -E '^✘ Test .* failed' "$log" | grep -vc '^✘ Test run')
grep -qE '^✔ Test run with' "$log" || broken=$((broken + 1))
echo "store suite on SQLite and PostgreSQL: $cases tests passed, $broken failed (each test runs once per store)"
passed=$((passed + cases)); failed=$((failed + broken))
rm -f "$log"
replicas=$(mktemp)
python3 Tests/postgres/replicas.py "$(pwd)" | tee "$replicas"
passed=$((passed + $(grep -c '^ok ' "$replicas"))); failed=$((failed + $(grep -c '^FAIL' "$replicas")))
grep -qE '^replicas: [0-9]+ passed, 0 failed' "$replicas" || [ "$(grep -c '^FAIL' "$replicas")" -gt 0 ] || failed=$((failed + 1))
rm -f "$replicas"
echo "test-postgres: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
