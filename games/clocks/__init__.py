"""Time at the table: `turns` keeps each awaited seat's deadline on its membership row (a
human's clock, the pause before a seat the server plays moves), and `deadlines` is the sweep
every server process runs that does what has fallen due, once, by whichever process: a
bot's move, a clock running out, the queued mail. Deadlines are rows, not timers. Callers
import the module they use (`from games.clocks import turns`); nothing is re-exported here."""
