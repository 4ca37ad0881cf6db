"""The machine players' runtime on the server: `thinking` runs a hard bot's search in a
small worker process pool, so a search never holds the interpreter lock the event loop needs.
The bots themselves live with their game (games/kinds/<game>/bots.py, search.py), and a
machine move is made by the deadline sweep (games/clocks/deadlines.py) through the service
games/services/bot_moves.py. Callers import the module they use (`from games.bots import
thinking`); nothing is re-exported here."""
