"""Mizerka Arena server side: the rules engine, the referee and its gRPC service."""
