"""The referee: runs matches over abstract seat ports, enforcing clocks and surviving faulty bots.

It knows nothing of gRPC: a port moves protocol messages in and out, so the same referee is driven
by real streams in the service and by in-memory queues in tests (on a fake clock).
"""
