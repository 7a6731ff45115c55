// mizerka-cpp-decide: the example bot's answer to one position, without a referee. Reads one
// DecisionRequest (binary protobuf) on stdin and writes the Action the strategy of strategy.cpp
// answers (binary protobuf) on stdout, so that a test can put the strategy before a crafted
// request (tests/test_cpp_bot.py) and a bot author can replay a position. Exit 1 on an unreadable
// request.
#include <iostream>

#include "strategy.h"

int main() {
  mizerka::v1::DecisionRequest request;
  if (!request.ParseFromIstream(&std::cin)) {
    std::cerr << "mizerka-cpp-decide: stdin is not a DecisionRequest (binary protobuf)" << std::endl;
    return 1;
  }
  return mizerka_bot::Decide(request).SerializeToOstream(&std::cout) ? 0 : 1;
}
