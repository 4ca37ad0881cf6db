#!/usr/bin/env bash
# The hard bots against the medium ones, with decision times (issue targets and figures:
# docs/benchmarks.md, "Hard bots against medium ones"). `make bench-bots` runs every game; `make bench-bots GAMES=hearts`
# one. Each game's output goes to bench/results/bots/<game>.txt (and to the terminal).
# Seats rotate between games; the figures depend on the seed only, not on JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
SEED=${SEED:-bots}
OUT=bench/results/bots
mkdir -p "$OUT"

simulate() {  # simulate <file> <args...>
  local file=$1
  shift
  python manage.py simulate --seed "$SEED" --jobs "$JOBS" "$@" | tee -a "$OUT/$file.txt"
}

m=medium
for game in ${GAMES:-hundred-and-ten hearts one-hundred-and-four fifty-six}; do
  : >"$OUT/$game.txt"
  case $game in
    hundred-and-ten)  # hard wins >= 50% against three medium, >= 2,000 games
      simulate "$game" --game "$game" --games 2000 --bots hard,$m,$m,$m ;;
    hearts)  # hard takes <= 75% of medium's points per hand, >= 2,000 hands
      simulate "$game" --game "$game" --games 300 --bots hard,$m,$m,$m ;;
    one-hundred-and-four)  # hard takes <= 80% of medium's penalty, 2,000 games at 4 and 10
      simulate "$game" --game "$game" --games 2000 --bots hard,$m,$m,$m
      simulate "$game" --game "$game" --games 2000 --players 10 \
        --bots hard,$m,$m,$m,$m,$m,$m,$m,$m,$m ;;
    fifty-six)  # a team of hard bots wins >= 60% of matches, 4 and 6 seats
      simulate "$game" --game "$game" --games 400 --bots hard,$m,hard,$m
      simulate "$game" --game "$game" --games 200 --players 6 --bots hard,$m,hard,$m,hard,$m ;;
    *) echo "unknown game: $game" >&2; exit 2 ;;
  esac
done
