// gpu: persistent workgroups stride over the whole image. Each workgroup keeps
// COPIES private histograms in shared memory, channel-major with an odd stride
// between copies so that one bin of different copies lies in different banks;
// invocation i counts into copy (i >> COPY_SHIFT) % COPIES. The copies are
// added to the global histogram once, at the end (to one of MERGE_COPIES
// global copies). COPIES = 0 counts straight into global memory, for
// histograms that do not fit in shared memory when ranges of bins (RANGES,
// below) are not used.
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

shared uint localBins[SHARED_WORDS];
shared bool lastGroup;

// `base` is the copy's index (INTERLEAVE) or its first word.
uint slot(uint base, uint counter) {
  return INTERLEAVE != 0u ? counter * COPIES + base : base + counter;
}

// The parts of one stretch of the image take different global copies in turn.
uint globalCopy() { return ((gl_WorkGroupID.x / GROUPS) % MERGE_COPIES) * BINS * 4u; }
// The global counter of `bin` of `channel` in this workgroup's copy.
uint globalCounter(uint channel, uint bin) { return globalCopy() + bin * 4u + channel; }

uint part() { return gl_WorkGroupID.x % GROUPS; }
uint firstChannel() {
  return CHANNELS == 1u && PLANES == 0u ? 4u - CPG : (part() / RANGES) * CPG;
}
// PLANES: the first 16-byte quad of this workgroup's plane; pc.stride holds
// the quads per plane (as in split_planes.comp).
uint planeQuad() { return PLANES != 0u ? firstChannel() * pc.stride : 0u; }
uint firstBin() { return (part() % RANGES) * RANGE_BINS; }

// The global counter of 16-bit counter k (HALVES) of this workgroup.
uint halfCounter(uint k) {
  return globalCounter(firstChannel() + k / RANGE_BINS, firstBin() + k % RANGE_BINS);
}

// Ends a round of HALVES: every counter moves its top four bits (a multiple
// of 0x1000) to the global histogram. Counters start a round below 0x1000 and
// gain at most 0xF000 in it, so none passes 0xFFFF into its neighbour.
void carryHalves(uint lid, uint groupSize) {
  // Every add of the round must be in before the counters are read.
  barrier();
  for (uint w = lid; w < SHARED_WORDS; w += groupSize) {
    const uint v = localBins[w];
    if ((v & 0xF000F000u) == 0u) continue;
    localBins[w] = v & 0x0FFF0FFFu;
    for (uint h = 0u; h < 2u; ++h) {
      const uint high = (v >> (16u * h)) & 0xF000u;
      if (high != 0u) atomicAdd(bins[halfCounter(2u * w + h)], high);
    }
  }
  // The counters must be below 0x1000 before the next round adds to them.
  barrier();
}

#if SUBGROUP
// Adds 1 to `bin` of `channel` in global memory, grouping equal bins of the
// subgroup first (GLOBAL_ROUNDS).
void addGlobalGrouped(uint channel, uint bin) {
  bool pending = true;
  for (uint round = 0u; round < GLOBAL_ROUNDS; ++round) {
    if (pending) {
      const uint first = subgroupBroadcastFirst(bin);
      const bool same = bin == first;
      const uint n = subgroupBallotBitCount(subgroupBallot(same));
      // The elected invocation is the first pending one, whose bin is `first`.
      if (subgroupElect()) atomicAdd(bins[globalCounter(channel, first)], n);
      pending = !same;
    }
  }
  if (pending) atomicAdd(bins[globalCounter(channel, bin)], 1u);
}
#endif

void addCount(uint base, uint channel, uint bin, uint n) {
  if (bin == NO_BIN) return;
#if SUBGROUP
  if (COPIES == 0u && GLOBAL_ROUNDS > 0u && n == 1u) {
    addGlobalGrouped(channel, bin);
    return;
  }
#endif
  if (COPIES > 0u) {
    uint local = channel - firstChannel();  // wraps above CPG for channels below the group
    if (local >= CPG) return;
    if (HALVES != 0u) {
      uint k = bin - firstBin();  // wraps above RANGE_BINS for bins below the range
      if (k < RANGE_BINS) {
        k += local * RANGE_BINS;
        atomicAdd(localBins[k >> 1], n << ((k & 1u) * 16u));
      }
      return;
    }
    atomicAdd(localBins[slot(base, local * BINS + bin)], n);
  } else {
    atomicAdd(bins[globalCounter(channel, bin)], n);
  }
}

void countBins(uint base, uvec4 b) {
#if SUBGROUP
  // Bins are below 65536 (or all NO_BIN for grey), so two packed words identify them.
  if (VOTE_RUNS != 0u && subgroupAllEqual((b.x << 16) | (b.y & 0xFFFFu)) &&
      subgroupAllEqual((b.z << 16) | (b.w & 0xFFFFu))) {
    uint n = subgroupBallotBitCount(subgroupBallot(true));
    if (subgroupElect()) {
      for (uint c = 0u; c < 4u; ++c) addCount(base, c, b[c], n);
    }
    return;
  }
#endif
  for (uint c = 0u; c < 4u; ++c) addCount(base, c, b[c], 1u);
}

// One pixel of integer samples. Workgroups that count only some channels
// (and every workgroup, for 16-bit samples) compute only the bins of their
// channels (luminance, the costly one, in one group), each added straight to
// its counter; the branches are the same for the whole workgroup. (Gathering
// the group's bins in a vector for countBins first measured 9% slower on the
// H200.) 8-bit pixels counted in all four channels take their bins at once.
void countRgb(uint base, uint r, uint g, uint b) {
  if (SAMPLE_BITS == 8u && CPG == 4u) {
    countBins(base, rgbBins(r, g, b));
    return;
  }
#if SUBGROUP
  if (VOTE_RUNS != 0u) {
    countBins(base, rgbBins(r, g, b));
    return;
  }
#endif
  const uint first = COPIES > 0u ? firstChannel() : 0u;
  const uint end = COPIES > 0u ? first + CPG : 4u;
  if (first == 0u) addCount(base, 0u, channelBin(r), 1u);
  if (first <= 1u && 1u < end) addCount(base, 1u, channelBin(g), 1u);
  if (first <= 2u && 2u < end) addCount(base, 2u, channelBin(b), 1u);
  if (end == 4u) addCount(base, 3u, lumaBin(r, g, b), 1u);
}

// One RGBA8 pixel in a word.
void countWord(uint base, uint w) {
  countRgb(base, w & 0xFFu, bitfieldExtract(w, 8, 8), bitfieldExtract(w, 16, 8));
}

// One pixel read on its own.
void countPixel(uint base, uint p) {
  if (PLANES != 0u) {
    addCount(base, firstChannel(), loadSample(planeQuad() * 8u + p), 1u);
  } else if (SAMPLE_BITS == 16u && CHANNELS != 1u) {
    const uint i = p * CHANNELS;
    countRgb(base, loadSample(i), loadSample(i + 1u), loadSample(i + 2u));
  } else if (SAMPLE_BITS == 8u && CHANNELS == 4u) {
    countWord(base, words[p]);
  } else {
    countBins(base, pixelBins(p));
  }
}

// The four, two or one grey samples of one word.
void countGreyWord(uint base, uint w) {
  if (SAMPLE_BITS == 32u) {
    countBins(base, uvec4(NO_BIN, NO_BIN, NO_BIN, unitBin(clampUnit(uintBitsToFloat(w)))));
    return;
  }
  const uint n = SAMPLE_BITS == 8u ? 4u : 2u;
  for (uint k = 0u; k < n; ++k) {
    const uint v = bitfieldExtract(w, int(k * SAMPLE_BITS), int(SAMPLE_BITS));
    if (PLANES != 0u) {
      addCount(base, firstChannel(), v, 1u);
    } else {
      countBins(base, uvec4(NO_BIN, NO_BIN, NO_BIN, channelBin(v)));
    }
  }
}

// Three words of RGB samples: four RGB8 pixels (12 bytes) or two RGB16 ones.
void countRgbWords(uint base, uint w0, uint w1, uint w2) {
  if (SAMPLE_BITS == 16u) {
    countRgb(base, w0 & 0xFFFFu, w0 >> 16, w1 & 0xFFFFu);
    countRgb(base, w1 >> 16, w2 & 0xFFFFu, w2 >> 16);
    return;
  }
  countWord(base, w0);
  countRgb(base, w0 >> 24, w1 & 0xFFu, bitfieldExtract(w1, 8, 8));
  countRgb(base, bitfieldExtract(w1, 16, 8), w1 >> 24, w2 & 0xFFu);
  countRgb(base, bitfieldExtract(w2, 8, 8), bitfieldExtract(w2, 16, 8), w2 >> 24);
}

// Wide load q: 16 bytes, or for RGB three words (the fourth component unused).
uvec4 loadWide(uint q) {
  if (CHANNELS == 3u) {
    const uint i = 3u * q;
    return uvec4(words[i], words[i + 1u], words[i + 2u], 0u);
  }
  return quads[planeQuad() + q];
}

// The pixels of one wide load: four RGBA8, two RGBA16, sixteen grey8, eight
// grey16 or four grey float in 16 bytes; four RGB8 or two RGB16 in three words.
void countLoad(uint base, uvec4 w) {
  if (CHANNELS == 3u) {
    countRgbWords(base, w.x, w.y, w.z);
    return;
  }
  if (CHANNELS == 1u) {
    for (uint k = 0u; k < 4u; ++k) countGreyWord(base, w[k]);
    return;
  }
  if (SAMPLE_BITS == 16u) {
    countRgb(base, w.x & 0xFFFFu, w.x >> 16, w.y & 0xFFFFu);
    countRgb(base, w.z & 0xFFFFu, w.z >> 16, w.w & 0xFFFFu);
    return;
  }
#if SUBGROUP
  if (QUAD_RUNS != 0u) {
    const uint differ = (w.x ^ w.y) | (w.x ^ w.z) | (w.x ^ w.w);
    if (subgroupAll((differ & 0x00FFFFFFu) == 0u)) {
      const uvec4 b = wordBins(w.x);
      for (uint c = 0u; c < 4u; ++c) addCount(base, c, b[c], 4u);
      return;
    }
  }
#endif
  countWord(base, w.x);
  countWord(base, w.y);
  countWord(base, w.z);
  countWord(base, w.w);
}

// With FINISH, the workgroup that merges last sums the global copies.
void finishRun(uint lid, uint groupSize) {
  if (FINISH == 0u) return;
  const uint words = BINS * 4u;
  const uint ticket = MERGE_COPIES * words;
  // This invocation's adds to the copies must be visible before the ticket
  // counts its workgroup as merged.
  memoryBarrierBuffer();
  // Every invocation of the workgroup has merged.
  barrier();
  if (lid == 0u) lastGroup = atomicAdd(bins[ticket], 1u) == pc.groupCount - 1u;
  // lastGroup is written before anyone reads it.
  barrier();
  if (!lastGroup) return;
  // Every other workgroup's adds happened before its ticket: read after it.
  memoryBarrierBuffer();
  for (uint i = lid; i < words; i += groupSize) {
    uint sum = 0u;
    for (uint c = 0u; c < MERGE_COPIES; ++c) sum += atomicExchange(bins[c * words + i], 0u);
    finalBins[i] = sum;
  }
  if (lid == 0u) atomicExchange(bins[ticket], 0u);
}

// Adds the workgroup's counters to its global copy.
void mergeShared(uint lid, uint groupSize) {
  // All private counts must be final before they are merged.
  barrier();
  if (HALVES != 0u) {
    for (uint k = lid; k < CPG * RANGE_BINS; k += groupSize) {
      const uint n = bitfieldExtract(localBins[k >> 1], int((k & 1u) * 16u), 16);
      if (n != 0u) atomicAdd(bins[halfCounter(k)], n);
    }
    return;
  }
  const uint counters = BINS * CPG;
  const uint copyStride = counters + 1u;
  for (uint i = lid; i < counters; i += groupSize) {
    uint sum = 0u;
    for (uint k = 0u; k < COPIES; ++k) {
      sum += localBins[INTERLEAVE != 0u ? i * COPIES + k : k * copyStride + i];
    }
    if (sum != 0u) atomicAdd(bins[globalCounter(firstChannel() + i / BINS, i % BINS)], sum);
  }
}

// With HALVES, the end of each round of ROUND_ITERS loop steps (the rounds
// are the same for the whole workgroup).
void endRound(uint lid, uint groupSize) {
  if (HALVES != 0u) carryHalves(lid, groupSize);
}

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
          if (q + u * step < loadCount) w[u] = loadWide(q + u * step);
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
