"""The codec: the proto is the schema, and each message has one conversion to and from the engine
here. ``protocol.py`` converts views, decisions, actions and results, ``wire_events.py`` events, a
seat's view kept up to date from them and full deal records; every JSON form is derived from the
wire's form by one function: the match log's lines (``matchlog.py``, docs/match-log.md) and the
proto's own JSON mapping (``proto_json.py``, the web page's feed). The stdio lines are made from the
wire's messages on the bot's side, by the SDK's bridge (mizerka.stdio.codec). Everything here only
re-encodes what the engine's projection gave it, so no encoding can show more than the view holds.
"""
