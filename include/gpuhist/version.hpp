// The library version.
#pragma once

namespace gpuhist {
inline constexpr const char* kVersion = "0.1.0";
}  // namespace gpuhist
