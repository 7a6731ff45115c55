"""Generated gRPC/protobuf stubs of the Mizerka Arena protocol, package ``mizerka.v1``.

The ``*_pb2.py``, ``*_pb2.pyi`` and ``*_pb2_grpc.py`` modules here are generated from
``proto/mizerka/v1/*.proto`` by ``make proto``; do not edit them (tests/test_protocol.py checks
that they match the .proto files). Import them as ``from mizerka.v1 import referee_pb2``.
"""
