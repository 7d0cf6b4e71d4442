// What four shared-memory atomics per pixel cost on an NVIDIA GPU, and what
// counters that avoid bank conflicts cost instead: RGBA8 pixels resident on
// the GPU, R, G, B and Rec.709 luminance x 256 bins, each kernel timed with
// CUDA events (median of 10 runs after 3 warm-ups, clocks raised first) on
// the images gpuhist-bench times. The `gpu` strategy's counting loop is
// `atomic`; the rest answer one question each:
//
//   empty             a launch of the same grid that does nothing
//   read              every 16-byte load, nothing counted (the read floor)
//   bins-only         loads and bins, the bins summed in a register, no atomics
//   atomic            one copy of 1024 counters per workgroup, four shared
//                     atomics per pixel: the `gpu` strategy's loop (exact)
//   atomic-no-conflict the same atomics with each bin's low five bits replaced
//                     by the lane, so that a subgroup's 32 atomics always meet
//                     32 different banks (wrong counts by design)
//   atomic-one-bank   the low five bits cleared: a subgroup's atomics share one
//                     bank (wrong counts by design)
//   atomic-quad-runs  each invocation first merges the equal bins of its load's
//                     four pixels, channel by channel, and adds each distinct
//                     bin once with its count (exact)
//   atomic-subgroup-rows  the subgroup's 128 pixels read as four rows of 32
//                     words, so that each atomic meets 32 neighbouring pixels
//                     rather than every fourth of 128 (exact)
//   lane-copies-atomic  byte counters, one copy per lane of the subgroup,
//                     shared by 8 subgroups: conflict-free atomics, the top
//                     four bits of each byte carried to 32-bit counters (exact)
//   lane-copies-private byte counters private to each invocation, read, added
//                     and written without atomics, one subgroup per workgroup (exact)
//
// Built only where nvcc exists (the engine-only build), like cub_compare.
//
//   atomics_probe [PHOTO.ppm]
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_bench.hpp"

#define CHECK(call) BENCH_CUDA_CHECK("atomics_probe", call)

namespace {

constexpr unsigned kCounters = 1024;  // 4 channels x 256 bins, channel-major

__host__ __device__ unsigned luma_bin(unsigned r, unsigned g, unsigned b) {
  const unsigned s = 2126u * r + 7152u * g + 722u * b;  // Rec.709, weights sum to 10000
  return s * 256u / 2550000u < 255u ? s * 256u / 2550000u : 255u;
}

enum Mode { kAtomic, kNoConflict, kOneBank, kBinsOnly, kQuadRuns, kSubgroupRows };

template <Mode M>
__device__ __forceinline__ void add(unsigned* s, unsigned k, unsigned lane, unsigned& acc) {
  if (M == kAtomic || M == kSubgroupRows) atomicAdd(&s[k], 1u);
  if (M == kNoConflict) atomicAdd(&s[(k & ~31u) | lane], 1u);
  if (M == kOneBank) atomicAdd(&s[k & ~31u], 1u);
  if (M == kBinsOnly) acc += k;
}

template <Mode M>
__device__ __forceinline__ void count_word(unsigned* s, unsigned w, unsigned lane, unsigned& acc) {
  const unsigned r = w & 255u, g = (w >> 8) & 255u, b = (w >> 16) & 255u;
  add<M>(s, r, lane, acc);
  add<M>(s, 256u + g, lane, acc);
  add<M>(s, 512u + b, lane, acc);
  add<M>(s, 768u + luma_bin(r, g, b), lane, acc);
}

// The four pixels of a 16-byte load. kQuadRuns adds each distinct bin of a
// channel once, with the number of the four pixels that fall in it.
template <Mode M>
__device__ __forceinline__ void count_load(unsigned* s, uint4 q, unsigned lane, unsigned& acc) {
  if (M != kQuadRuns) {
    count_word<M>(s, q.x, lane, acc);
    count_word<M>(s, q.y, lane, acc);
    count_word<M>(s, q.z, lane, acc);
    count_word<M>(s, q.w, lane, acc);
    return;
  }
  const unsigned w[4] = {q.x, q.y, q.z, q.w};
  unsigned bin[4][4];  // [channel][pixel]
  for (unsigned p = 0; p < 4; ++p) {
    const unsigned r = w[p] & 255u, g = (w[p] >> 8) & 255u, b = (w[p] >> 16) & 255u;
    bin[0][p] = r;
    bin[1][p] = 256u + g;
    bin[2][p] = 512u + b;
    bin[3][p] = 768u + luma_bin(r, g, b);
  }
  for (unsigned c = 0; c < 4; ++c) {
    const unsigned* k = bin[c];
    const bool e01 = k[0] == k[1], e02 = k[0] == k[2], e03 = k[0] == k[3];
    const bool e12 = k[1] == k[2], e13 = k[1] == k[3], e23 = k[2] == k[3];
    atomicAdd(&s[k[0]], 1u + e01 + e02 + e03);
    if (!e01) atomicAdd(&s[k[1]], 1u + e12 + e13);
    if (!e02 && !e12) atomicAdd(&s[k[2]], 1u + e23);
    if (!e03 && !e13 && !e23) atomicAdd(&s[k[3]], 1u);
  }
}

// Quad i of the image. kSubgroupRows reads a subgroup's 32 quads (128
// pixels) as four rows of 32 words instead, so that the lanes' k-th pixels
// are 32 neighbours (one word each) rather than every fourth pixel of 128.
template <Mode M>
__device__ __forceinline__ uint4 load_quad(const uint4* __restrict__ q, unsigned i, unsigned lane,
                                           unsigned n4) {
  const unsigned block = i - lane;  // the subgroup's first quad
  if (M == kSubgroupRows && block + 32u <= n4) {
    const unsigned* w = reinterpret_cast<const unsigned*>(q) + std::size_t{block} * 4u;
    return make_uint4(w[lane], w[32u + lane], w[64u + lane], w[96u + lane]);
  }
  return q[i];
}

// The `gpu` strategy's loop: persistent workgroups of 1024, two 16-byte loads
// in flight, one private copy of the counters merged into `hist` at the end.
template <Mode M>
__global__ void __launch_bounds__(1024) k_shared(const uint4* __restrict__ q, unsigned n4, unsigned* hist) {
  __shared__ unsigned s[kCounters];
  const unsigned tid = threadIdx.x, lane = tid & 31u;
  for (unsigned i = tid; i < kCounters; i += blockDim.x) s[i] = 0;
  __syncthreads();
  unsigned acc = 0;
  const unsigned step = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n4; i += 2 * step) {
    const uint4 a = load_quad<M>(q, i, lane, n4);
    const bool second = i + step < n4;
    const uint4 b = second ? load_quad<M>(q, i + step, lane, n4) : make_uint4(0, 0, 0, 0);
    count_load<M>(s, a, lane, acc);
    if (second) count_load<M>(s, b, lane, acc);
  }
  if (M == kBinsOnly && acc == 0x12345678u) s[0] = acc;  // keeps the bins computed
  __syncthreads();
  for (unsigned i = tid; i < kCounters; i += blockDim.x) {
    if (s[i] != 0) atomicAdd(&hist[i], s[i]);
  }
}

__global__ void k_empty(const uint4*, unsigned, unsigned*) {}

__global__ void k_read(const uint4* __restrict__ q, unsigned n4, unsigned* hist) {
  unsigned acc = 0;
  const unsigned step = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += 2 * step) {
    const uint4 a = q[i];
    const uint4 b = i + step < n4 ? q[i + step] : make_uint4(0, 0, 0, 0);
    acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w;
  }
  if (acc == 0x12345678u) hist[0] = acc;
}

// Lane copies of byte counters: counter k of lane j's copy is byte k % 4 of
// word (k / 4) * 32 + j, so the 32 lanes of a subgroup always meet 32 banks.
__device__ __forceinline__ unsigned lane_word(unsigned k, unsigned lane) { return (k >> 2) * 32u + lane; }
__device__ __forceinline__ unsigned lane_byte(unsigned k) { return 1u << ((k & 3u) * 8u); }

// The four pixels of a load into this lane's copy: by shared atomics
// (Atomic: the copy is shared with other subgroups) or by a plain read, add
// and write (the copy is this invocation's alone).
template <bool Atomic>
__device__ __forceinline__ void count_lane_load(unsigned* s, uint4 a, unsigned lane) {
  const unsigned words[4] = {a.x, a.y, a.z, a.w};
  for (unsigned p = 0; p < 4; ++p) {
    const unsigned w = words[p];
    const unsigned r = w & 255u, g = (w >> 8) & 255u, b = (w >> 16) & 255u;
    const unsigned counters[4] = {r, 256u + g, 512u + b, 768u + luma_bin(r, g, b)};
    for (unsigned k : counters) {
      if (Atomic) {
        atomicAdd(&s[lane_word(k, lane)], lane_byte(k));
      } else {
        s[lane_word(k, lane)] += lane_byte(k);
      }
    }
  }
}

// Moves the top four bits of each byte counter of word `w` to the 32-bit counters.
__device__ __forceinline__ void carry_word(unsigned* s, unsigned* wide, unsigned w) {
  const unsigned v = s[w];
  if ((v & 0xF0F0F0F0u) == 0u) return;
  s[w] = v & 0x0F0F0F0Fu;
  for (unsigned b = 0; b < 4; ++b) {
    const unsigned high = (v >> (8u * b)) & 0xF0u;
    if (high != 0u) atomicAdd(&wide[(w >> 5) * 4u + b], high);
  }
}

// Adds the lane copies and the 32-bit counters into `hist`, each lane reading
// a different bank at every step.
__device__ void merge_lane_copies(const unsigned* s, const unsigned* wide, unsigned tid,
                                  unsigned threads, unsigned* hist) {
  const unsigned lane = tid & 31u;
  for (unsigned k = tid; k < kCounters; k += threads) {
    unsigned sum = wide[k];
    for (unsigned c = 0; c < 32; ++c) {
      sum += (s[(k >> 2) * 32u + ((c + lane) & 31u)] >> ((k & 3u) * 8u)) & 0xFFu;
    }
    if (sum != 0) atomicAdd(&hist[k], sum);
  }
}

// W subgroups share the lane copies; a loop step adds at most 4 * W to a byte
// counter, which starts a round below 16, so 239 / (4 * W) steps make a round.
template <unsigned W>
__global__ void __launch_bounds__(W * 32) k_lane_atomic(const uint4* __restrict__ q, unsigned n4, unsigned* hist) {
  __shared__ unsigned s[kCounters * 8];
  __shared__ unsigned wide[kCounters];
  const unsigned tid = threadIdx.x, lane = tid & 31u, threads = W * 32u;
  for (unsigned i = tid; i < kCounters * 8; i += threads) s[i] = 0;
  for (unsigned i = tid; i < kCounters; i += threads) wide[i] = 0;
  __syncthreads();
  const unsigned step = gridDim.x * threads;
  const unsigned window = (239u / (4u * W)) * step;
  for (unsigned w0 = blockIdx.x * threads; w0 < n4; w0 += window) {
    const unsigned end = min(n4, w0 + window);
    for (unsigned i = w0 + tid; i < end; i += step) count_lane_load<true>(s, q[i], lane);
    __syncthreads();
    for (unsigned w = tid; w < kCounters * 8; w += threads) carry_word(s, wide, w);
    __syncthreads();
  }
  merge_lane_copies(s, wide, tid, threads, hist);
}

// One subgroup per workgroup, each invocation the only writer of its copy: no
// atomics. A load adds at most 4 to a counter: 59 loads make a round.
__global__ void __launch_bounds__(32) k_lane_private(const uint4* __restrict__ q, unsigned n4, unsigned* hist) {
  __shared__ unsigned s[kCounters * 8];
  __shared__ unsigned wide[kCounters];
  const unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < kCounters * 8; i += 32) s[i] = 0;
  for (unsigned i = lane; i < kCounters; i += 32) wide[i] = 0;
  __syncwarp();
  const unsigned step = gridDim.x * 32u;
  unsigned loads = 0;
  for (unsigned i = blockIdx.x * 32u + lane; __any_sync(0xFFFFFFFFu, i < n4); i += step) {
    if (i < n4) count_lane_load<false>(s, q[i], lane);
    if (++loads == 59) {
      __syncwarp();
      for (unsigned row = 0; row < kCounters / 4; ++row) carry_word(s, wide, row * 32u + lane);
      __syncwarp();
      loads = 0;
    }
  }
  __syncwarp();
  merge_lane_copies(s, wide, lane, 32u, hist);
}

struct Kernel {
  const char* name;
  void (*launch)(const uint4*, unsigned, unsigned*);
  int per_sm, threads;
  bool exact;  // its counts must match the host's
};

}  // namespace

int main(int argc, char** argv) {
  using namespace bench_images;
  const Photo photo = argc > 1 ? read_ppm("atomics_probe", argv[1]) : Photo{};
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, sms);

  const Kernel kernels[] = {
      {"empty", k_empty, 1, 1024, false},
      {"read", k_read, 2, 1024, false},
      {"bins-only", k_shared<kBinsOnly>, 1, 1024, false},
      {"atomic", k_shared<kAtomic>, 1, 1024, true},
      {"atomic-no-conflict", k_shared<kNoConflict>, 1, 1024, false},
      {"atomic-one-bank", k_shared<kOneBank>, 1, 1024, false},
      {"atomic-quad-runs", k_shared<kQuadRuns>, 1, 1024, true},
      {"atomic-subgroup-rows", k_shared<kSubgroupRows>, 1, 1024, true},
      {"lane-copies-atomic", k_lane_atomic<8>, 6, 256, true},
      {"lane-copies-private", k_lane_private, 6, 32, true},
  };
  const unsigned sizes[][2] = {{2448, 1505}, {16384, 16384}};
  const char* kinds[] = {"random", "one-colour", "photo"};
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  unsigned* hist = nullptr;
  CHECK(cudaMalloc(&hist, kCounters * sizeof(unsigned)));

  std::printf("%-12s %-11s %-20s %9s %9s  check\n", "size", "data", "kernel", "ms", "GB/s");
  for (const auto& size : sizes) {
    for (int kind = 0; kind < 3; ++kind) {
      if (kind == 2 && photo.width == 0) continue;
      const std::vector<std::uint32_t> host = make(size[0], size[1], kind, &photo);
      const auto n4 = static_cast<unsigned>(host.size() / 4);  // both sizes are multiples of 4
      std::vector<unsigned> expected(kCounters, 0);
      for (std::uint32_t p : host) {
        const unsigned r = p & 255u, g = (p >> 8) & 255u, b = (p >> 16) & 255u;
        ++expected[r];
        ++expected[256 + g];
        ++expected[512 + b];
        ++expected[768 + luma_bin(r, g, b)];
      }
      uint4* pixels = nullptr;
      CHECK(cudaMalloc(&pixels, host.size() * 4));
      CHECK(cudaMemcpy(pixels, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
      // Raise the clocks: the GPU idles at a low clock while the host made the image.
      for (int i = 0; i < 200; ++i) k_shared<kAtomic><<<sms, 1024>>>(pixels, n4, hist);
      CHECK(cudaDeviceSynchronize());
      for (const Kernel& k : kernels) {
        std::vector<float> ms;
        for (int i = 0; i < 13; ++i) {
          CHECK(cudaMemset(hist, 0, kCounters * sizeof(unsigned)));
          CHECK(cudaEventRecord(start));
          k.launch<<<sms * k.per_sm, k.threads>>>(pixels, n4, hist);
          CHECK(cudaEventRecord(stop));
          CHECK(cudaEventSynchronize(stop));
          float t = 0;
          CHECK(cudaEventElapsedTime(&t, start, stop));
          if (i >= 3) ms.push_back(t);
        }
        CHECK(cudaGetLastError());
        std::vector<unsigned> got(kCounters);
        CHECK(cudaMemcpy(got.data(), hist, kCounters * sizeof(unsigned), cudaMemcpyDeviceToHost));
        const float m = median(ms);
        std::printf("%-12s %-11s %-20s %9.4f %9.1f  %s\n",
                    (std::to_string(size[0]) + "x" + std::to_string(size[1])).c_str(), kinds[kind],
                    k.name, m, host.size() * 4.0 / (m * 1e6),
                    !k.exact ? "-" : got == expected ? "exact" : "MISMATCH");
      }
      CHECK(cudaFree(pixels));
    }
  }
  return 0;
}
