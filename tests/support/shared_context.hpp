// One Vulkan context per test program (pipelines are compiled once), on the
// best device: a hardware GPU, or the software device where there is none.
#pragma once

#include "gpuhist/context.hpp"

namespace gpuhist::test {

// Fails the calling test (through the returned nullptr check) when no Vulkan
// device exists: GPU strategies are always tested, on lavapipe at least.
inline const Context& gpu_context() {
  static const Context context = Context::open("auto");
  return context;
}

}  // namespace gpuhist::test
