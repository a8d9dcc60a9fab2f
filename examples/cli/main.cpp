// The dra command: parses flags and prints; all behaviour lives in the headers.
#include <dra/dra.hpp>

#include <cstdio>

int main() {
  std::puts("dra: nothing to do yet");
  return 0;
}
