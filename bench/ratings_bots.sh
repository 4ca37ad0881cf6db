#!/usr/bin/env bash
# The bot levels' ratings (docs/ratings.md): 400 games per game of hard, medium and easy at
# one table (Fifty-Six, a team game: hard+hard against medium+medium, then easy+easy against
# medium+medium, each run rating its level against the fixed medium bot),
# through `simulate --rated`, the medium bot fixed at 1500. The order hard > medium > easy
# holds when the 95% intervals (± 2σ) do not overlap. Not run in CI: it takes about 35 minutes on two
# cores. Output: bench/results/ratings_bots/<game>.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
SEED=${SEED:-ratings}
GAMES=${GAMES:-400}
OUT=bench/results/ratings_bots
mkdir -p "$OUT"

rate() {  # rate <game> <args...>
  local game=$1
  shift
  python manage.py simulate --game "$game" --games "$GAMES" --seed "$SEED" --jobs "$JOBS" \
    --rated "$@" | tee -a "$OUT/$game.txt"
}

for game in ${KINDS:-hundred-and-ten hearts one-hundred-and-four fifty-six}; do
  : >"$OUT/$game.txt"
  case $game in
    hundred-and-ten) rate "$game" --players 3 --bots hard,medium,easy ;;
    hearts) rate "$game" --bots hard,medium,easy,easy ;;
    one-hundred-and-four) rate "$game" --players 3 --bots hard,medium,easy ;;
    fifty-six)
      rate "$game" --players 4 --bots hard,medium,hard,medium
      rate "$game" --players 4 --bots easy,medium,easy,medium ;;
    *) echo "unknown game: $game" >&2; exit 2 ;;
  esac
done
