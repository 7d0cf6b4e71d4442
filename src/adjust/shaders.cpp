#include "adjust/shaders.hpp"

#include "shaders/apply_lut_comp_spv.hpp"
#include "shaders/clahe_apply_comp_spv.hpp"
#include "shaders/clahe_tiles_comp_spv.hpp"
#include "shaders/make_tables_comp_spv.hpp"

namespace gpuhist::adjust {

std::span<const std::uint32_t> shader_code(Shader shader) {
  switch (shader) {
    case Shader::ApplyLut:
      return spirv::apply_lut_comp;
    case Shader::ClaheApply:
      return spirv::clahe_apply_comp;
    case Shader::ClaheTiles:
      return spirv::clahe_tiles_comp;
    case Shader::MakeTables:
      return spirv::make_tables_comp;
  }
  return {};
}

}  // namespace gpuhist::adjust
