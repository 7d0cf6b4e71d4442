#include "count/shaders.hpp"

#include "shaders/chunks_reduce_comp_spv.hpp"
#include "shaders/chunks_sum_comp_spv.hpp"
#include "shaders/hist_atomic_comp_spv.hpp"
#include "shaders/hist_chunks_comp_spv.hpp"
#include "shaders/hist_privatized_comp_spv.hpp"
#include "shaders/hist_privatized_subgroup_comp_spv.hpp"
#include "shaders/hist_single_comp_spv.hpp"
#include "shaders/merge_copies_comp_spv.hpp"
#include "shaders/split_planes_comp_spv.hpp"

namespace gpuhist::count {

std::span<const std::uint32_t> shader_code(Shader shader) {
  switch (shader) {
    case Shader::HistSingle:
      return spirv::hist_single_comp;
    case Shader::HistAtomic:
      return spirv::hist_atomic_comp;
    case Shader::HistChunks:
      return spirv::hist_chunks_comp;
    case Shader::ChunksSum:
      return spirv::chunks_sum_comp;
    case Shader::ChunksReduce:
      return spirv::chunks_reduce_comp;
    case Shader::HistPrivatizedSubgroup:
      return spirv::hist_privatized_subgroup_comp;
    case Shader::HistPrivatized:
      return spirv::hist_privatized_comp;
    case Shader::MergeCopies:
      return spirv::merge_copies_comp;
    case Shader::SplitPlanes:
      return spirv::split_planes_comp;
  }
  return {};
}

}  // namespace gpuhist::count
