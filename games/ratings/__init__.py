"""Ratings: a number per person and per game kind, and one per bot level, learned from
rated games with openskill's Weng-Lin (Plackett-Luce) model (docs/ratings.md).

* `scale`: the model, how a rating is shown (1500 + 20 × (μ − 25), ± 2σ) and when it settles;
* `match`: one finished game's update, from places and teams (pure: `simulate --rated` too);
* `models`: the rows; `service`: the update in the transaction that ends a game;
* `board`: what pages show (names' ratings, the player page, the leaderboard); `chart`: the
  server-drawn history chart.
"""
