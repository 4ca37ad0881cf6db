#!/usr/bin/env bash
# Every catalogue complete (no untranslated and no fuzzy message, as msgfmt counts them) and
# its committed .mo compiled from the .po as it is now (`make messages` refreshes both).
set -euo pipefail
cd "$(dirname "$0")"
status=0
found=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for po in */LC_MESSAGES/*.po; do
  [ -e "$po" ] || continue
  found=1
  counts=$(msgfmt --check --statistics -o "$tmp" "$po" 2>&1)
  echo "$po: $counts"
  if grep -qE "untranslated|fuzzy" <<<"$counts"; then
    echo "  incomplete: translate every message (and clear the fuzzy flags)" >&2
    status=1
  fi
  if ! cmp -s "$tmp" "${po%.po}.mo"; then
    echo "  ${po%.po}.mo is not compiled from this .po: run make messages" >&2
    status=1
  fi
done
if [ "$found" = 0 ]; then
  echo "no catalogues under locale/" >&2
  status=1
fi
exit $status
