"""Generated Python stubs of the Mizerka Arena protocol (proto package ``mizerka.v1``).

The ``*_pb2.py``, ``*_pb2.pyi`` and ``*_pb2_grpc.py`` modules are generated from
``proto/mizerka/v1/*.proto`` by ``make proto`` (``proto/python/generate.py``); do not edit them
(tests/test_protocol.py checks that they match the .proto files). Import them as
``from mizerka_proto import referee_pb2``. The server and the Python bot SDK both depend on this
package and on nothing of each other.
"""
