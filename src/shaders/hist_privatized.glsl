// gpu: persistent workgroups stride over the whole image. This file holds the
// constants, the buffers and the loop; privatized_counters.glsl where the
// counters live and how they are added and merged, privatized_pixels.glsl how
// each pixel format's loads become bins.
//
// Each workgroup keeps COPIES private histograms in shared memory,
// channel-major with an odd stride between copies so that one bin of
// different copies lies in different banks; invocation i counts into copy
// (i >> COPY_SHIFT) % COPIES. The copies are added to the global histogram
// once, at the end (to one of MERGE_COPIES global copies). COPIES = 0 counts
// straight into global memory, for histograms that do not fit in shared
// memory when ranges of bins (RANGES, below) are not used.
// INTERLEAVE instead puts the copies of one counter side by side (copy c of
// counter k at k * COPIES + c), so neighbouring invocations hit neighbouring
// banks even when their pixels fall in the same bin.
//
// WIDE reads RGBA8 pixels four at a time, RGBA16 two, grey8 sixteen, grey16
// eight and grey float four (16-byte loads), and RGB pixels (no alpha) four
// RGB8 or two RGB16 at a time (three words), UNROLL loads per loop step so
// that several are in flight.
// The SUBGROUP build (for devices with subgroup vote and ballot) adds two
// ways to spend fewer atomics on runs of equal pixels: VOTE_RUNS, a subgroup
// whose pixels all fall in the same bins adds them with one atomic per
// channel; QUAD_RUNS, a subgroup whose 16-byte loads each hold four pixels of
// one colour adds each load's four with one atomic per channel.
layout(local_size_x_id = 10) in;
#include "params.glsl"
#include "binning.glsl"

layout(constant_id = 4) const uint SHARED_WORDS = 1025u;  // COPIES * (BINS * 4 + 1), or 1
layout(constant_id = 6) const uint COPIES = 1u;
layout(constant_id = 7) const uint COPY_SHIFT = 5u;
layout(constant_id = 8) const uint WIDE = 0u;
layout(constant_id = 9) const uint INTERLEAVE = 0u;
layout(constant_id = 12) const uint UNROLL = 1u;
// Workgroup g adds to global copy g % MERGE_COPIES (summed at the end by a
// later pass or, with FINISH, by the last workgroup), so that no counter takes
// every workgroup's atomic in turn.
layout(constant_id = 13) const uint MERGE_COPIES = 1u;
// Histograms too large for shared memory with all four channels are split:
// workgroups count CPG channels only (a channel group), and the workgroups of
// one group stride over the whole image together. Grey images have only
// luminance: every workgroup counts the last channel group.
layout(constant_id = 14) const uint SPLIT = 1u;
const uint CPG = 4u / SPLIT;  // channels per workgroup
// HALVES keeps two 16-bit counters per shared word (one copy), so histograms
// twice as large fit. Every ROUND_ITERS loop steps, in which no counter can
// gain more than 0xF000, every counter moves its top four bits to the global
// histogram (carryHalves), so none passes 0xFFFF.
layout(constant_id = 15) const uint HALVES = 0u;
// Histograms too large for shared memory even one channel to a workgroup
// (65536 bins) are also split into RANGES ranges of RANGE_BINS bins (HALVES):
// a workgroup counts one range of its channel group, and reads every pixel.
// The workgroups of all the parts (channel group and range) of one stretch of
// the image are neighbours, so that they read it at about the same time, when
// the L2 cache may still hold it.
layout(constant_id = 20) const uint RANGES = 1u;
layout(constant_id = 21) const uint ROUND_ITERS = 1u;  // loop steps between barriers (HALVES)
const uint RANGE_BINS = (BINS + RANGES - 1u) / RANGES;
// PLANES (with RANGES, one channel per workgroup): binding 0 holds the four
// planes of 16-bit bins that split_planes.comp wrote (the binning constants
// then say one 16-bit channel), and each workgroup reads only its channel's
// plane, whose samples are bins already.
layout(constant_id = 22) const uint PLANES = 0u;
// ROWS (RGBA8, workgroups of a multiple of 32): the 32 invocations
// 32j..32j+31 read their 32 consecutive 16-byte loads as four rows of 32
// words, so that invocation i's k-th pixel is pixel 32k + i of the 128 and
// one atomic of theirs meets 32 neighbouring pixels, not every fourth of 128
// (a photograph's neighbours share more bins). The block must lie wholly
// below `end`; otherwise each reads its own load.
layout(constant_id = 23) const uint ROWS = 0u;
// Parts the workgroups form: workgroup g counts part g % GROUPS.
const uint GROUPS = (CHANNELS == 1u && PLANES == 0u ? 1u : SPLIT) * RANGES;
// FINISH: the last workgroup of a run to merge adds the MERGE_COPIES global
// copies up itself, writes the sums as the result (binding 2) and leaves the
// copies zero, so that no second pass (merge_copies.comp) and no barrier
// before it are needed. The workgroups count themselves with a ticket kept
// after the copies; pc.groupCount is the number of workgroups in the run (all
// of its dispatches).
layout(constant_id = 16) const uint FINISH = 0u;
// QUAD_RUNS (SUBGROUP build): where every invocation of a subgroup holds four
// RGBA8 pixels of one colour (alpha aside) in its load, each adds 4 to its
// bins with one atomic per channel instead of four. The branch is the whole
// subgroup's, so no subgroup issues more atomics than without it. (On the
// H200 flat images gained and photographs lost: the host leaves it off.)
layout(constant_id = 17) const uint QUAD_RUNS = 0u;
// VOTE_RUNS (SUBGROUP build): see countBins.
layout(constant_id = 18) const uint VOTE_RUNS = 0u;
// GLOBAL_ROUNDS (SUBGROUP build, COPIES = 0): before counting in global
// memory, up to this many rounds in which the invocations of a subgroup whose
// bin equals the first pending one's add their count with one atomic; the
// rest then add one by one. Photographs' pixels share few bins, random ones
// almost none.
layout(constant_id = 19) const uint GLOBAL_ROUNDS = 0u;

layout(std430, set = 0, binding = 0) readonly buffer Quads { uvec4 quads[]; };
layout(std430, set = 0, binding = 1) buffer Result { uint bins[]; };  // bins[bin * 4 + channel]
layout(std430, set = 0, binding = 2) writeonly buffer Final { uint finalBins[]; };  // FINISH only

// The only shared variable: SHARED_WORDS may fill the device's whole limit.
shared uint localBins[SHARED_WORDS];

#include "privatized_counters.glsl"
#include "privatized_pixels.glsl"

void main() {
  const uint lid = gl_LocalInvocationIndex;
  const uint groupSize = gl_WorkGroupSize.x;

  if (COPIES > 0u) {
    for (uint i = lid; i < SHARED_WORDS; i += groupSize) localBins[i] = 0u;
    // Private histograms must be zero before anyone counts into them.
    barrier();
  }

  const uint copy = COPIES > 0u ? (lid >> COPY_SHIFT) % COPIES : 0u;
  const uint base = INTERLEAVE != 0u ? copy : copy * (BINS * CPG + 1u);
  const uint step = (gl_NumWorkGroups.x / GROUPS) * groupSize;
  const uint groupFirst = (gl_WorkGroupID.x / GROUPS) * groupSize;
  // This dispatch counts pixels pc.first (a multiple of 16) up to pc.pixelCount,
  // in windows of ROUND_ITERS loop steps (one window without HALVES).
  // Wide loads: every format but RGB and RGBA float.
  if (WIDE != 0u && (CHANNELS == 1u || SAMPLE_BITS != 32u)) {
    const uint perLoad = CHANNELS == 3u ? 32u / SAMPLE_BITS : 128u / (CHANNELS * SAMPLE_BITS);
    const uint loadCount = pc.pixelCount / perLoad;
    const uint window = HALVES != 0u ? step * UNROLL * ROUND_ITERS : loadCount;
    for (uint w0 = pc.first / perLoad + groupFirst; w0 < loadCount; w0 += window) {
      const uint wEnd = min(loadCount, w0 + window);
      for (uint q = w0 + lid; q < wEnd; q += step * UNROLL) {
        uvec4 w[UNROLL];
        for (uint u = 0u; u < UNROLL; ++u) {
          if (q + u * step < loadCount) w[u] = loadBlock(q + u * step, loadCount);
        }
        for (uint u = 0u; u < UNROLL; ++u) {
          if (q + u * step >= loadCount) break;
          countLoad(base, w[u]);
        }
      }
      endRound(lid, groupSize);
    }
    // The last pixelCount % perLoad pixels, one per invocation.
    uint p = loadCount * perLoad + groupFirst + lid;
    if (p < pc.pixelCount) countPixel(base, p);
  } else {
    const uint window = HALVES != 0u ? step * ROUND_ITERS : pc.pixelCount;
    for (uint w0 = pc.first + groupFirst; w0 < pc.pixelCount; w0 += window) {
      const uint wEnd = min(pc.pixelCount, w0 + window);
      for (uint p = w0 + lid; p < wEnd; p += step) countPixel(base, p);
      endRound(lid, groupSize);
    }
  }

  if (COPIES > 0u) mergeShared(lid, groupSize);
  finishRun(lid, groupSize);
}
