# Wraps glslangValidator's --vn output (a C array) into a C++ header.
file(READ ${INC} body)
string(REPLACE "const uint32_t ${IDENT}[] =" "inline constexpr std::uint32_t ${IDENT}[] =" body "${body}")
file(WRITE ${OUT} "// Generated from a GLSL shader at build time. Do not edit.\n#pragma once\n#include <cstdint>\nnamespace gpuhist::spirv {\n${body}\n}  // namespace gpuhist::spirv\n")
