#version 460
// The `gpu` strategy for every device (see hist_privatized.glsl).
#extension GL_GOOGLE_include_directive : require
#define SUBGROUP 0
#include "hist_privatized.glsl"
