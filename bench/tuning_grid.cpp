#include "tuning_grid.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>

namespace gpuhist::bench {

std::string describe(const count::GpuTuning& t) {
  std::ostringstream out;
  const auto knob = [&](const char* name, const auto& value) {
    if (out.tellp() > 0) out << ' ';
    out << name << ' ';
    if (value) {
      out << +*value;
    } else {
      out << "auto";
    }
  };
  knob("group", t.group_size);
  knob("copies", t.copies);
  if (t.experiments.interleave.value_or(false)) out << " interleaved";
  knob("per-unit", t.groups_per_unit);
  knob("unroll", t.unroll);
  knob("wide", t.wide_loads);
  knob("uniform", t.experiments.uniform_runs);
  knob("slice", t.slice_pixels);
  knob("merge", t.merge_copies);
  knob("split", t.split);
  knob("packed", t.packed);
  knob("last-group", t.last_group_sums);
  knob("quad-runs", t.experiments.quad_runs);
  knob("global-rounds", t.experiments.global_rounds);
  knob("ranges", t.bin_ranges);
  knob("planes", t.planes);
  knob("rows", t.experiments.rows);
  return out.str();
}

// Histograms larger than shared memory with four channels: channel groups
// against packed 16-bit counters, at several workgroups per unit; then two
// channel groups with one pixel per load (not two) and with 1 or 4 loads in flight.
std::vector<count::GpuTuning> large_histogram_grid() {
  std::vector<count::GpuTuning> grid;
  for (std::uint32_t per_unit : {4U, 8U, 16U}) {
    for (int kind = 0; kind < 3; ++kind) {
      count::GpuTuning t;
      t.groups_per_unit = per_unit;
      if (kind == 0) t.packed = true;
      if (kind == 1) t.split = 2;
      if (kind == 2) t.split = 4;
      grid.push_back(t);
    }
  }
  for (int kind = 0; kind < 3; ++kind) {
    count::GpuTuning t;
    t.groups_per_unit = 8;
    t.split = 2;
    if (kind == 0) t.wide_loads = false;
    t.unroll = kind == 1 ? 1U : 4U;
    grid.push_back(t);
  }
  return grid;
}

// Histograms of which one channel does not fit in shared memory (65536
// bins): counted in global memory (the default before ranges of bins, 16
// global copies, 4 workgroups per unit), against ranges of bins in 16-bit
// counters at 2 or 4 workgroups per unit with 1, 2 or 4 loads in flight, 8
// workgroups per unit, half-size workgroups, 16 global copies, one range more,
// and colour pixels read by every range instead of planes of bins.
std::vector<count::GpuTuning> ranged_histogram_grid() {
  std::vector<count::GpuTuning> grid;
  count::GpuTuning global;
  global.bin_ranges = 0;
  global.merge_copies = 16;
  global.groups_per_unit = 4;
  grid.push_back(global);
  for (std::uint32_t per_unit : {2U, 4U}) {
    for (std::uint32_t unroll : {1U, 2U, 4U}) {
      count::GpuTuning t;
      t.groups_per_unit = per_unit;
      t.unroll = unroll;
      grid.push_back(t);
    }
  }
  count::GpuTuning more_groups;
  more_groups.groups_per_unit = 8;
  grid.push_back(more_groups);
  count::GpuTuning half_groups;
  half_groups.group_size = 512;
  half_groups.groups_per_unit = 4;
  grid.push_back(half_groups);
  count::GpuTuning merge;
  merge.merge_copies = 16;
  grid.push_back(merge);
  count::GpuTuning more_ranges;
  more_ranges.bin_ranges = 4;
  grid.push_back(more_ranges);
  count::GpuTuning pixels;
  pixels.planes = false;
  grid.push_back(pixels);
  return grid;
}

std::vector<count::GpuTuning> tuning_grid(const DeviceInfo& info) {
  std::uint32_t warp_shift = 0;
  for (std::uint32_t s = std::max(1U, info.subgroup_size); s > 1; s >>= 1) ++warp_shift;
  const auto make = [](std::uint32_t group, std::uint32_t copies, std::uint32_t shift,
                       std::uint32_t per_unit, std::uint32_t unroll, bool interleave,
                       bool uniform) {
    count::GpuTuning t;
    t.group_size = group;
    t.copies = copies;
    t.copy_shift = shift;
    t.groups_per_unit = per_unit;
    t.unroll = unroll;
    t.experiments.interleave = interleave;
    t.experiments.uniform_runs = uniform;
    t.wide_loads = true;
    return t;
  };
  std::vector<count::GpuTuning> grid;
  // One global histogram or 16 for the workgroups' merges (summed by a pass,
  // or by the last workgroup), against pixels per dispatch (0: the whole image in one).
  for (int merge = 0; merge < 3; ++merge) {
    for (std::uint32_t slice : {0U, 1U << 22, 1U << 23, 1U << 25}) {
      count::GpuTuning t = make(512, 1, 0, 8, 1, false, false);
      t.slice_pixels = slice;
      t.merge_copies = merge == 0 ? 1U : 16U;
      t.last_group_sums = merge == 2;
      grid.push_back(t);
    }
  }
  // Workgroups per unit, workgroup sizes, unrolled loads, several private
  // copies, subgroup votes: each against the defaults (32 Mpixel slices, 16 merge copies).
  for (count::GpuTuning t :
       {make(512, 1, 0, 2, 1, false, false), make(512, 1, 0, 4, 1, false, false),
        make(512, 1, 0, 16, 1, false, false), make(256, 1, 0, 16, 1, false, false),
        make(1024, 1, 0, 4, 1, false, false), make(1024, 1, 0, 2, 1, false, false),
        make(512, 1, 0, 8, 2, false, false), make(512, 1, 0, 4, 2, false, false),
        make(1024, 1, 0, 4, 2, false, false), make(256, 5, warp_shift, 8, 1, false, false),
        make(512, 1, 0, 8, 1, false, true),
        // Fewer, larger workgroups (less to clear and merge on small images).
        make(1024, 1, 0, 1, 1, false, false), make(1024, 1, 0, 1, 2, false, false),
        make(1024, 1, 0, 2, 2, false, false),
        // Neighbouring invocations in different copies of each counter, side by
        // side: a subgroup's random bins meet in fewer banks.
        make(512, 2, 0, 4, 2, true, false)}) {
    t.slice_pixels = 1U << 25;
    t.merge_copies = 16;
    t.last_group_sums = true;
    grid.push_back(t);
  }
  // Around the defaults (1024 invocations, one workgroup per unit, two loads
  // in flight): fewer merge copies, a merge pass, one-colour loads added at
  // once, two merge copies, two workgroups per unit, and each 32 invocations'
  // loads read as rows of 32 pixels.
  for (int variant = 0; variant < 7; ++variant) {
    count::GpuTuning t = make(1024, 1, 0, variant == 5 ? 2 : 1, 2, false, false);
    t.slice_pixels = 1U << 25;
    t.merge_copies = variant == 0 || variant == 5 || variant == 6 ? 4U
                     : variant == 1                               ? 8U
                     : variant == 4                               ? 2U
                                                                  : 16U;
    t.last_group_sums = variant != 2;
    if (variant == 6) {
      t.experiments.rows = true;
    } else {
      t.experiments.quad_runs = variant == 3;
    }
    grid.push_back(t);
  }
  if (info.max_invocations < 1024)
    std::erase_if(grid, [](const auto& t) { return *t.group_size > 512; });
  return grid;
}

}  // namespace gpuhist::bench
