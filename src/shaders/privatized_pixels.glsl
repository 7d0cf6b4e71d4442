// The `gpu` strategy's pixels (included by hist_privatized.glsl after
// privatized_counters.glsl): every format's loads turned into bins and
// added with addCount or countBins.

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

// Wide load q of the loads below `end`, or with ROWS (RGBA8) this
// invocation's column of the rows of its block of 32 (see ROWS).
uvec4 loadBlock(uint q, uint end) {
  if (ROWS != 0u && CHANNELS == 4u && SAMPLE_BITS == 8u && PLANES == 0u) {
    const uint lane = gl_LocalInvocationIndex & 31u;
    const uint block = q - lane;  // the same for the 32 invocations
    if (block + 32u <= end) {
      const uint at = block * 4u + lane;
      return uvec4(words[at], words[at + 32u], words[at + 64u], words[at + 96u]);
    }
  }
  return loadWide(q);
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
