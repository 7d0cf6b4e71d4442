#version 460
// Histograms of tiles with one bin per sample value (BINS = M + 1), in one
// pass (src/adjust): workgroup (x, y * G + g) counts bands g, g + G, g + 2G, …
// of the rows of tile (x, y), where G = bandGroups (each grid axis stays within
// the 65535 workgroups every device takes), over the image extended by
// reflection (BORDER_REFLECT_101) to whole tiles as OpenCV's CLAHE extends
// it. Colour pixels go to red, green and blue tables, or to one table of their
// luminance bins, or to all four (COLOUR_TABLES); grey samples to one. With one tile this is the whole image's histogram, for the tables
// of the other adjustments.
// 8-bit tables add up in shared memory first; 16-bit ones go straight to the
// global counters. Tested against the CPU's per-tile counts through the plans
// they make (identical bytes).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "binning.glsl"

layout(constant_id = 5) const uint USE_SHARED = 1u;
layout(constant_id = 4) const uint SHARED_WORDS = 1024u;
// Colour pixels: 0: red, green, blue; 1: luminance; 2: red, green, blue, luminance.
layout(constant_id = 24) const uint COLOUR_TABLES = 0u;

// src/adjust/shaders.hpp mirrors it (TileParams).
layout(push_constant) uniform TileParams {
  uint width;       // the image's
  uint height;
  uint tileWidth;   // pixels of one tile
  uint tileHeight;
  uint bandGroups;  // workgroups sharing the bands of one tile
  uint tables;      // tables per tile: 3, 1 or 4
  uint bandRows;    // rows of a tile one workgroup counts
} pc;

layout(std430, set = 0, binding = 1) buffer Counts { uint counts[]; };  // [tile][table][BINS]

shared uint local[SHARED_WORDS];

// OpenCV's borderInterpolate for BORDER_REFLECT_101.
uint reflect101(int p, int len) {
  if (len == 1) return 0u;
  while (p < 0 || p >= len) p = p < 0 ? -p : 2 * len - 2 - p;
  return uint(p);
}

void add(uint base, uint table, uint v) {
  if (USE_SHARED != 0u) {
    atomicAdd(local[table * BINS + v], 1u);
  } else {
    atomicAdd(counts[base + table * BINS + v], 1u);
  }
}

void main() {
  const uint tx = gl_WorkGroupID.x;
  const uint ty = gl_WorkGroupID.y / pc.bandGroups;
  const uint tile = ty * gl_NumWorkGroups.x + tx;
  const uint words = pc.tables * BINS;
  const uint base = tile * words;
  if (USE_SHARED != 0u) {
    for (uint i = gl_LocalInvocationIndex; i < words; i += 256u) local[i] = 0u;
    barrier();
  }
  const uint bands = (pc.tileHeight + pc.bandRows - 1u) / pc.bandRows;
  for (uint band = gl_WorkGroupID.y % pc.bandGroups; band < bands; band += pc.bandGroups) {
    const uint firstRow = band * pc.bandRows;
    const uint n = min(pc.bandRows, pc.tileHeight - firstRow) * pc.tileWidth;
    for (uint i = gl_LocalInvocationIndex; i < n; i += 256u) {
      uint x = reflect101(int(tx * pc.tileWidth + i % pc.tileWidth), int(pc.width));
      uint y = reflect101(int(ty * pc.tileHeight + firstRow + i / pc.tileWidth), int(pc.height));
      uint p = y * pc.width + x;
      if (CHANNELS == 1u) {
        add(base, 0u, loadSample(p));
      } else {
        uint s = p * CHANNELS;
        uint r = loadSample(s), g = loadSample(s + 1u), b = loadSample(s + 2u);
        if (COLOUR_TABLES == 1u) {
          add(base, 0u, lumaBin(r, g, b));
        } else {
          add(base, 0u, r);
          add(base, 1u, g);
          add(base, 2u, b);
          if (COLOUR_TABLES == 2u) add(base, 3u, lumaBin(r, g, b));
        }
      }
    }
  }
  if (USE_SHARED != 0u) {
    barrier();
    for (uint i = gl_LocalInvocationIndex; i < words; i += 256u) {
      if (local[i] != 0u) atomicAdd(counts[base + i], local[i]);
    }
  }
}
