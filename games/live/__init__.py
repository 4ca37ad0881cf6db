"""Real time: what keeps every open page current without a reload. `realtime` names the
channel groups and sends the after-commit pushes the consumers redraw from; `presence` counts
who has a game open, across processes, and since when the others have been away; `online`
stamps who is anywhere on the site (for friends); `committed` is the per-process cache of
values read from committed data (a state after n moves, a version's shared table parts) that
lets a process follow a push without reading the database. Callers import the module they
use (`from games.live import realtime`); nothing is re-exported here."""
