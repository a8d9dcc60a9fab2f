#include <dra/core/function_ref.hpp>

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

namespace {

using dra::function_ref;

int call_twice(function_ref<int(int)> f) { return f(f(1)); }

TEST(FunctionRef, CallsTheReferencedCallableWithItsState) {
  int calls = 0;
  auto add_three = [&calls](int x) {
    ++calls;
    return x + 3;
  };
  EXPECT_EQ(call_twice(add_three), 7);
  EXPECT_EQ(calls, 2);  // the lambda itself ran, not a copy
}

TEST(FunctionRef, PassesArgumentsByReferenceAndConvertsTheResult) {
  std::string text = "a";
  auto append = [](std::string& s, const char* more) -> std::size_t {
    s += more;
    return s.size();
  };
  const function_ref<long(std::string&, const char*)> f(append);
  EXPECT_EQ(f(text, "bc"), 3);
  EXPECT_EQ(text, "abc");
}

TEST(FunctionRef, CopiesReferToTheSameCallable) {
  int value = 0;
  auto set = [&value](int v) { value = v; };
  const function_ref<void(int)> first(set);
  const function_ref<void(int)> copy = first;
  copy(5);
  EXPECT_EQ(value, 5);
}

// Only what can be called with the signature's arguments and gives its result converts.
static_assert(std::is_constructible_v<function_ref<int(int)>, int (*&)(int)>);
static_assert(!std::is_constructible_v<function_ref<int(int)>, int>);
static_assert(!std::is_constructible_v<function_ref<int(int)>, void (*&)(const char*)>);
static_assert(!std::is_constructible_v<function_ref<std::string()>, int (*&)()>);

}  // namespace
