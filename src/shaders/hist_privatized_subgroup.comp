#version 460
// The `gpu` strategy for devices with subgroup vote and ballot: runs of equal
// pixels may be added with fewer atomics (see hist_privatized.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#define SUBGROUP 1
#include "hist_privatized.glsl"
