// A consumer of dra: includes the umbrella header and uses the library.
#include <dra/dra.hpp>

#include <cstdio>

int main() {
  dra::result<int> answer = 42;
  if (!answer || *answer != 42) return 1;
  std::puts("dra consumer ok");
  return 0;
}
