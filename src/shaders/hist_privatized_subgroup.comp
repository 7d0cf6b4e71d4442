#version 460
// The `gpu` strategy for devices with subgroup vote and ballot: uniform runs of
// pixels are added once per subgroup (see hist_privatized.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#define UNIFORM_RUNS 1
#include "hist_privatized.glsl"
