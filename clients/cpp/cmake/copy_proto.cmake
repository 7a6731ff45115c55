# Copies one .proto file from the repository's proto/ into the build folder for protoc, working
# around a C++-only name clash in the contract:
#
#   message PlayerState { repeated string hand = 4; ... uint32 hand_size = 5; ... }
#
# protoc's C++ generator gives the repeated field `hand` a `hand_size()` accessor (its length),
# which collides with the accessor of the field `hand_size`: the generated game.pb.h does not
# compile ("cannot be overloaded"). Other languages are not affected. The copy renames that one
# field to `hand_count` (same number, same type): the wire format is unchanged, so the bot talks
# to the referee exactly as before; only the C++ accessor name differs. When proto/ renames the
# field itself, this step changes nothing.
#
# cmake -DIN=<proto file> -DOUT=<copy> -P copy_proto.cmake
file(READ "${IN}" text)
string(REPLACE "  uint32 hand_size = 5;" "  uint32 hand_count = 5;  // renamed for C++ (see clients/cpp/cmake/copy_proto.cmake)" text "${text}")
file(WRITE "${OUT}" "${text}")
