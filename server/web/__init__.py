"""The arena's web page: ``page.py`` the routes and JSON answers, ``feed.py`` a match's live feed
(server-sent events shared by its spectators), ``capped.py`` the connection caps, ``updates.py``
WatchUpdates as the feed sends them (server/codec/proto_json.py's JSON; also used by the finished-game
renderer in its worker process, so nothing here imports aiohttp at package import), ``assets/``
the HTML, JS and CSS (with the board that the league report copies).
"""
