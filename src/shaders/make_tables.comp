#version 460
// Lookup tables made from histograms on the device (src/adjust): workgroup g
// (y * width of the grid + x, so that each axis stays within the 65535
// workgroups every device takes) takes counted table g (BINS counts, one bin
// per sample value) to a table of BINS values in 0..BINS-1, written as 16-bit
// values two per word — the cumulative sum between the histogram
// and the lookup. KIND (table_kinds.h):
//  TABLE_EQUALIZE equalisation, as equalize_table (OpenCV's equalizeHist);
//  TABLE_STRETCH contrast stretch between two nearest-rank percentiles, as stretch_table;
//  TABLE_MATCH matching to a reference's cumulative counts, as match_table;
//  TABLE_CLAHE CLAHE's clipped and redistributed tile table, as OpenCV's CLAHE_CalcLut_Body.
// Integer kinds are exact in 32-bit words (64-bit products through
// umulExtended); CLAHE's scale is one float product rounded to even, as
// OpenCV's saturate_cast. Tested for equal bytes against the host's tables.
// 128 invocations, or more (a power of two, at most BINS / 2) where the device
// takes them.
#extension GL_GOOGLE_include_directive : require
#include "table_kinds.h"

layout(local_size_x_id = 10) in;

layout(constant_id = 2) const uint BINS = 256u;   // 256 or 65536
layout(constant_id = 25) const uint KIND = TABLE_EQUALIZE;

// src/adjust/shaders.hpp mirrors it (TableParams).
layout(push_constant) uniform TableParams {
  uint low;        // CLAHE: the clip limit (0: none); stretch: the rank of the low percentile
  uint high;       // CLAHE: float bits of the scale; stretch: the rank of the high percentile
  uint refTotal;   // match: the reference's pixel count
  uint outBase;    // word offset of table 0 in Tables
  uint firstOut;   // the table counted table 0 goes to
  uint copies;     // tables each counted table goes to (side by side)
  uint tableCount; // counted tables
} pc;

layout(std430, set = 0, binding = 0) readonly buffer Counts { uint counts[]; };  // [table][BINS]
layout(std430, set = 0, binding = 1) buffer Tables { uint tables[]; };
// Match: the reference's cumulative counts for each counted table, [table][BINS].
layout(std430, set = 0, binding = 2) readonly buffer Reference { uint referenceBelow[]; };

const uint GROUP = gl_WorkGroupSize.x;
const uint PER = BINS / GROUP;  // bins of one invocation: an even number (GROUP <= BINS / 2)

shared uint scan[GROUP];
shared uint clipped;
shared uint firstBin;  // equalisation: the lowest value present
shared uint lowBin;    // stretch: the two percentiles
shared uint highBin;

// a * b < c * d, in 64 bits.
bool productLess(uint a, uint b, uint c, uint d) {
  uint h1, l1, h2, l2;
  umulExtended(a, b, h1, l1);
  umulExtended(c, d, h2, l2);
  return h1 < h2 || (h1 == h2 && l1 < l2);
}

// round(n * m / d), halves up, for n <= d, 0 < d and m < 65536: the quotient
// estimated in floats, then corrected by exact products.
uint roundedRatio(uint n, uint m, uint d) {
  uint q = min(uint(float(n) / float(d) * float(m)), m);
  while (q > 0u && productLess(n, m, q, d)) --q;
  while (q < m && !productLess(n, m, q + 1u, d)) ++q;
  uint h, nm, qd;
  umulExtended(n, m, h, nm);
  umulExtended(q, d, h, qd);
  uint r = nm - qd;  // n * m - q * d < d: its low word
  return q + (r >= d - r ? 1u : 0u);
}

// Bin v's count as the table sees it: for CLAHE, clipped to the limit, with
// the `excess` cut off spread evenly over every bin and its residual over
// every spacing-th bin from the first.
uint height(uint base, uint v, uint excess) {
  uint c = counts[base + v];
  if (KIND != TABLE_CLAHE || pc.low == 0u) return c;
  uint batch = excess / BINS;
  uint residual = excess - batch * BINS;
  uint spacing = residual != 0u ? max(BINS / residual, 1u) : 1u;
  bool extra = residual != 0u && v % spacing == 0u && v / spacing < residual;
  return min(c, pc.low) + batch + (extra ? 1u : 0u);
}

// Matching: whether the reference's cumulative count at w, as a share, stays
// below the image's `cumulative` (refBelow(w) / refTotal < cumulative / total).
bool shortOf(uint base, uint w, uint total, uint cumulative) {
  return productLess(referenceBelow[base + w], total, cumulative, pc.refTotal);
}

// The lowest w >= from that is not short of `cumulative`, or BINS - 1: found
// by steps doubling from `from`, then halving. Every w below the answer for a
// lower cumulative count is short of a higher one, so each invocation starts
// from its previous answer.
uint matchFrom(uint base, uint from, uint total, uint cumulative) {
  uint lo = from, hi = from, step = 1u;
  while (hi < BINS - 1u && shortOf(base, hi, total, cumulative)) {
    lo = hi + 1u;
    hi = min(hi + step, BINS - 1u);
    step <<= 1u;
  }
  while (lo < hi) {
    uint mid = (lo + hi) >> 1u;
    if (shortOf(base, mid, total, cumulative)) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  return lo;
}

void main() {
  const uint table = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (table >= pc.tableCount) return;  // the whole workgroup, before any barrier
  const uint lid = gl_LocalInvocationIndex;
  const uint base = table * BINS;
  const uint begin = min(lid * PER, BINS);
  const uint end = min(begin + PER, BINS);
  const uint top = BINS - 1u;

  if (lid == 0u) {
    clipped = 0u;
    firstBin = BINS;
    lowBin = top;
    highBin = top;
  }
  barrier();
  // CLAHE: what the clip limit cuts off; equalisation: the lowest value present.
  uint mine = 0u;
  for (uint v = begin; v < end; ++v) {
    uint c = counts[base + v];
    if (KIND == TABLE_CLAHE && pc.low != 0u && c > pc.low) mine += c - pc.low;
    if (KIND == TABLE_EQUALIZE && c != 0u) {
      atomicMin(firstBin, v);
      break;
    }
  }
  if (KIND == TABLE_CLAHE && mine != 0u) atomicAdd(clipped, mine);
  barrier();
  const uint excess = clipped;

  uint sum = 0u;
  for (uint v = begin; v < end; ++v) sum += height(base, v, excess);
  scan[lid] = sum;
  barrier();
  for (uint offset = 1u; offset < GROUP; offset <<= 1u) {
    uint add = lid >= offset ? scan[lid - offset] : 0u;
    barrier();
    scan[lid] += add;
    barrier();
  }
  const uint total = scan[GROUP - 1u];
  const uint below = lid > 0u ? scan[lid - 1u] : 0u;  // counts of the bins before `begin`

  if (KIND == TABLE_STRETCH) {  // the nearest ranks: the first values whose cumulative count reaches them
    uint cumulative = below;
    for (uint v = begin; v < end; ++v) {
      uint before = cumulative;
      cumulative += counts[base + v];
      if (before < pc.low && cumulative >= pc.low) lowBin = v;
      if (before < pc.high && cumulative >= pc.high) highBin = v;
    }
    barrier();
  }
  const uint first = firstBin;
  const uint firstCount = KIND == TABLE_EQUALIZE ? counts[base + min(first, top)] : 0u;
  const uint lo = lowBin, hi = highBin;
  const float scale = uintBitsToFloat(pc.high);

  uint cumulative = below;
  uint matched = 0u;
  for (uint v = begin; v < end; v += 2u) {
    uint pair = 0u;
    for (uint k = 0u; k < 2u; ++k) {
      uint value = v + k;
      cumulative += height(base, v + k, excess);
      if (KIND == TABLE_EQUALIZE) {
        if (firstCount == total) {
          value = v + k;  // one value: kept, by the identity (tables.cpp)
        } else {
          value = v + k <= first ? 0u
                                 : roundedRatio(cumulative - firstCount, top, total - firstCount);
        }
      } else if (KIND == TABLE_STRETCH) {
        uint x = v + k;
        if (hi > lo) {
          if (x <= lo) {
            value = 0u;
          } else if (x >= hi) {
            value = top;
          } else {
            uint n = (x - lo) * top, d = hi - lo;  // below 2^32: d < 65536
            uint q = n / d;
            value = q + (2u * (n - q * d) >= d ? 1u : 0u);
          }
        }
      } else if (KIND == TABLE_MATCH) {
        // The lowest w whose cumulative share of the reference reaches v's.
        matched = matchFrom(base, matched, total, cumulative);
        value = matched;
      } else {
        precise float scaled = float(cumulative) * scale;
        value = uint(clamp(roundEven(scaled), 0.0, float(top)));
      }
      pair |= value << (16u * k);
    }
    for (uint copy = 0u; copy < pc.copies; ++copy) {
      uint slot = pc.firstOut + table * pc.copies + copy;
      tables[pc.outBase + (slot * BINS + v) / 2u] = pair;
    }
  }
}
