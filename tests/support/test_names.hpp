// Parameterised test names built from gpuhist values ("gpu_chunks_sum").
#pragma once

#include <string>

#include "gpuhist/strategy.hpp"

namespace gpuhist::test {

inline std::string identifier(std::string_view text) {
  std::string name(text);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

inline std::string test_name(Strategy strategy) { return identifier(to_string(strategy)); }

// For INSTANTIATE_TEST_SUITE_P over strategies.
struct StrategyName {
  template <typename Info>
  std::string operator()(const Info& info) const {
    return test_name(info.param);
  }
};

}  // namespace gpuhist::test
