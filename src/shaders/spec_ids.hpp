// The specialization constant ids the shaders declare (layout(constant_id =
// N)): one table for every shader, so that the GLSL they share (binning.glsl,
// the privatized_*.glsl parts) keeps one id for each constant.
#pragma once

#include <cstdint>

namespace gpuhist {

enum SpecId : std::uint32_t {
  kSpecChannels = 0,
  kSpecSampleBits = 1,
  kSpecBins = 2,
  kSpecLuma601 = 3,
  kSpecSharedWords = 4,
  kSpecUseShared = 5,
  kSpecCopies = 6,
  kSpecCopyShift = 7,
  kSpecWide = 8,
  kSpecInterleave = 9,
  kSpecLocalX = 10,
  kSpecLocalY = 11,
  kSpecUnroll = 12,
  kSpecMergeCopies = 13,
  kSpecSplit = 14,
  kSpecHalves = 15,
  kSpecFinish = 16,
  kSpecQuadRuns = 17,
  kSpecVoteRuns = 18,
  kSpecGlobalRounds = 19,
  kSpecRanges = 20,
  kSpecRoundIters = 21,
  kSpecPlanes = 22,
  kSpecRows = 23,
  kSpecLutTarget = 24,
  kSpecTableKind = 25,
};

}  // namespace gpuhist
