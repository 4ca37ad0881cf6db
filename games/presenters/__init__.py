"""What a page shows: plain builders of template contexts, shared by the views (HTTP) and the
consumers (pushes), so that a socket draws the same partial as a page without importing a
view. They read through the models and services and decide nothing.

Modules: `lobby` (the lobby lists, `lobby_context`), `room` (the waiting room,
`room_context`), `basis` (what every viewer of a table's version shares, built once per
version), `context` (one viewer's table, `table_context`, from the seat's view) and `replay`
(a game stepped through from its action log, `replay_context`)."""
