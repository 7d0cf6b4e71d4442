// CUB's DeviceHistogram::MultiHistogramEven<4, 4> (256 bins per channel of
// RGBA8) on the same images gpuhist-bench times, measured with CUDA events in
// the same way: pixels resident on the GPU, median of 10 runs after 2 warm-ups.
// Then the same random images from host memory to counts on the host, wall
// time (copy in, histogram, copy the counts back), from pageable memory and
// from pinned memory: what gpuhist-bench --e2e is compared with.
// Built only where nvcc exists; run next to gpuhist-bench on NVIDIA GPUs.
//
//   cub_compare [PHOTO.ppm]
#include <cub/device/device_histogram.cuh>
#include <cuda/std/array>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_bench.hpp"

#define CHECK(call) BENCH_CUDA_CHECK("cub_compare", call)

using bench_images::make;
using bench_images::median;
using bench_images::Photo;
using bench_images::read_ppm;

int main(int argc, char** argv) {
  const Photo photo = argc > 1 ? read_ppm("cub_compare", argv[1]) : Photo{};
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);

  const unsigned sizes[][2] = {{2448, 1505}, {7680, 4320}, {16384, 16384}};
  const char* kinds[] = {"random", "one-colour", "photo"};
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  // Device copy rate, bytes read + written, on the largest size.
  {
    const std::size_t bytes = std::size_t{16384} * 16384 * 4;
    void *a = nullptr, *b = nullptr;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMemset(a, 1, bytes));
    std::vector<float> ms;
    for (int i = 0; i < 12; ++i) {
      CHECK(cudaEventRecord(start));
      CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (i >= 2) ms.push_back(t);
    }
    std::printf("device copy rate %.1f GB/s (read + write)\n", 2.0 * bytes / (median(ms) * 1e6));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
  }

  std::printf("%-12s %-11s %10s %9s  check\n", "size", "data", "CUB ms", "GB/s");
  for (const auto& size : sizes) {
    for (int kind = 0; kind < 3; ++kind) {
      if (kind == 2 && photo.width == 0) continue;
      const std::vector<std::uint32_t> host = make(size[0], size[1], kind, &photo);
      const int n = static_cast<int>(host.size());
      std::uint32_t* pixels = nullptr;
      CHECK(cudaMalloc(&pixels, host.size() * 4));
      CHECK(cudaMemcpy(pixels, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
      ::cuda::std::array<int*, 4> hist{};
      for (auto& h : hist) CHECK(cudaMalloc(&h, 256 * sizeof(int)));
      const ::cuda::std::array<int, 4> levels{257, 257, 257, 257};
      const ::cuda::std::array<unsigned, 4> lower{0, 0, 0, 0};
      const ::cuda::std::array<unsigned, 4> upper{256, 256, 256, 256};
      const auto* samples = reinterpret_cast<const unsigned char*>(pixels);
      std::size_t temp_bytes = 0;
      CHECK((cub::DeviceHistogram::MultiHistogramEven<4, 4>(nullptr, temp_bytes, samples, hist, levels,
                                                            lower, upper, n)));
      void* temp = nullptr;
      CHECK(cudaMalloc(&temp, temp_bytes));
      std::vector<float> ms;
      for (int i = 0; i < 12; ++i) {
        CHECK(cudaEventRecord(start));
        CHECK((cub::DeviceHistogram::MultiHistogramEven<4, 4>(temp, temp_bytes, samples, hist, levels,
                                                              lower, upper, n)));
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        if (i >= 2) ms.push_back(t);
      }
      // Red counts against a plain loop on the host.
      std::vector<int> red(256), expected(256, 0);
      CHECK(cudaMemcpy(red.data(), hist[0], 256 * sizeof(int), cudaMemcpyDeviceToHost));
      for (std::uint32_t p : host) ++expected[p & 0xFF];
      const float m = median(ms);
      std::printf("%-12s %-11s %10.3f %9.1f  %s\n",
                  (std::to_string(size[0]) + "x" + std::to_string(size[1])).c_str(), kinds[kind], m,
                  host.size() * 4.0 / (m * 1e6), red == expected ? "exact" : "MISMATCH");
      CHECK(cudaFree(temp));
      for (auto& h : hist) CHECK(cudaFree(h));
      CHECK(cudaFree(pixels));
    }
  }
  std::printf("host memory to counts (random RGBA8, wall ms: copy in, histogram, counts back)\n");
  std::printf("%-12s %12s %12s %10s  check\n", "size", "pageable ms", "pinned ms", "bus GB/s");
  for (const auto& size : sizes) {
    const std::vector<std::uint32_t> host = make(size[0], size[1], 0, &photo);
    const std::size_t bytes = host.size() * 4;
    const int n = static_cast<int>(host.size());
    std::uint32_t* pinned = nullptr;
    CHECK(cudaMallocHost(&pinned, bytes));
    std::memcpy(pinned, host.data(), bytes);
    std::uint32_t* pixels = nullptr;
    CHECK(cudaMalloc(&pixels, bytes));
    ::cuda::std::array<int*, 4> hist{};
    for (auto& h : hist) CHECK(cudaMalloc(&h, 256 * sizeof(int)));
    const ::cuda::std::array<int, 4> levels{257, 257, 257, 257};
    const ::cuda::std::array<unsigned, 4> lower{0, 0, 0, 0};
    const ::cuda::std::array<unsigned, 4> upper{256, 256, 256, 256};
    const auto* samples = reinterpret_cast<const unsigned char*>(pixels);
    std::size_t temp_bytes = 0;
    CHECK((cub::DeviceHistogram::MultiHistogramEven<4, 4>(nullptr, temp_bytes, samples, hist, levels,
                                                          lower, upper, n)));
    void* temp = nullptr;
    CHECK(cudaMalloc(&temp, temp_bytes));
    std::vector<int> counts(4 * 256);
    const auto once = [&](const void* from) {
      const auto t0 = std::chrono::steady_clock::now();
      CHECK(cudaMemcpy(pixels, from, bytes, cudaMemcpyHostToDevice));
      CHECK((cub::DeviceHistogram::MultiHistogramEven<4, 4>(temp, temp_bytes, samples, hist, levels,
                                                            lower, upper, n)));
      for (int c = 0; c < 4; ++c) {
        CHECK(cudaMemcpy(counts.data() + c * 256, hist[c], 256 * sizeof(int), cudaMemcpyDeviceToHost));
      }
      return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    const auto timed = [&](const void* from) {
      std::vector<float> ms;
      for (int i = 0; i < 12; ++i) {
        const float t = once(from);
        if (i >= 2) ms.push_back(t);
      }
      return median(ms);
    };
    const float pageable = timed(host.data());
    const float pin = timed(pinned);
    // The bus alone: pinned memory to the device.
    std::vector<float> bus;
    for (int i = 0; i < 12; ++i) {
      CHECK(cudaEventRecord(start));
      CHECK(cudaMemcpy(pixels, pinned, bytes, cudaMemcpyHostToDevice));
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      if (i >= 2) bus.push_back(t);
    }
    std::vector<int> expected(256, 0);
    for (std::uint32_t p : host) ++expected[p & 0xFF];
    const bool exact = std::equal(expected.begin(), expected.end(), counts.begin());
    std::printf("%-12s %12.3f %12.3f %10.1f  %s\n",
                (std::to_string(size[0]) + "x" + std::to_string(size[1])).c_str(), pageable, pin,
                bytes / (median(bus) * 1e6), exact ? "exact" : "MISMATCH");
    CHECK(cudaFree(temp));
    for (auto& h : hist) CHECK(cudaFree(h));
    CHECK(cudaFree(pixels));
    CHECK(cudaFreeHost(pinned));
  }
  return 0;
}
