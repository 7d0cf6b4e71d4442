// Equality of histograms with a message that names the first differing bin.
#pragma once

#include <gtest/gtest.h>

#include "gpuhist/histogram.hpp"

namespace gpuhist::test {

inline ::testing::AssertionResult same_histograms(const Histogram& actual,
                                                  const Histogram& expected) {
  if (actual.bins() != expected.bins()) {
    return ::testing::AssertionFailure() << "bins " << actual.bins() << " != " << expected.bins();
  }
  if (actual.colour() != expected.colour()) {
    return ::testing::AssertionFailure()
           << "colour " << actual.colour() << " != " << expected.colour();
  }
  for (Channel channel : expected.channels()) {
    const auto a = actual.counts(channel);
    const auto e = expected.counts(channel);
    for (std::size_t bin = 0; bin < e.size(); ++bin) {
      if (a[bin] != e[bin]) {
        return ::testing::AssertionFailure() << to_string(channel) << " bin " << bin << ": "
                                             << a[bin] << " != expected " << e[bin];
      }
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpuhist::test
