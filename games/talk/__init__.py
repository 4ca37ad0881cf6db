"""Table talk: quick reactions and a chat per game, for every game kind (docs/talk.md).

The layers, as elsewhere: views (games/talk/views.py) -> the service (service.py, one
transaction, the push after commit) -> the rows (models.py). Who may write where and who
sees what is decided in rules.py alone (`hidden_senders`: mutes and blocks);
presenter.py draws the panel and the pushed lines for one viewer.
"""
