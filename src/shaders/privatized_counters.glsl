// The `gpu` strategy's counters (included by hist_privatized.glsl, whose
// constants they use): which channels and bins a workgroup counts, adding to
// its private copies in shared memory (32-bit, or 16-bit halves carried to
// the global histogram every round) or straight to global memory, and the
// merge of the copies at the end.

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

// With FINISH, the workgroup that merges last sums the global copies.
void finishRun(uint lid, uint groupSize) {
  if (FINISH == 0u) return;
  const uint words = BINS * 4u;
  const uint ticket = MERGE_COPIES * words;
  // This invocation's adds to the copies must be visible before the ticket
  // counts its workgroup as merged.
  memoryBarrierBuffer();
  // Every invocation of the workgroup has merged: the counters are free, and
  // the first holds whether this workgroup merged last.
  barrier();
  if (lid == 0u) localBins[0] = atomicAdd(bins[ticket], 1u) == pc.groupCount - 1u ? 1u : 0u;
  // The flag is written before anyone reads it.
  barrier();
  if (localBins[0] == 0u) return;
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
