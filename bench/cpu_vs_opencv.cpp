// The `cpu` strategy against OpenCV on a 12-megapixel photograph: gpuhist's
// four histograms (R, G, B and luminance) in one pass, against OpenCV's
// calcHist of the three colour planes plus cvtColor to grey and its calcHist.
// OpenCV is a yardstick only: gpuhist itself never links it.
//
//   bench_cpu [--benchmark_filter=...]   (Google Benchmark options)
#include <algorithm>
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "core/row_parts.hpp"
#include "cpu/parallel.hpp"
#include "cpu/reference.hpp"
#include "cpu/rgb8_counter.hpp"
#include "gpuhist/histogram.hpp"
#include "gpuhist/histogram_options.hpp"

namespace {

// coffee.png tiled to 4000 x 3000 (12 Mpixel), as 8-bit BGR for OpenCV.
const cv::Mat& photo_bgr() {
  static const cv::Mat tiled = [] {
    const cv::Mat tile = cv::imread(GPUHIST_SAMPLE_PHOTO, cv::IMREAD_COLOR);
    if (tile.empty()) throw std::runtime_error("cannot read " GPUHIST_SAMPLE_PHOTO);
    cv::Mat out;
    cv::repeat(tile, 3000 / tile.rows + 1, 4000 / tile.cols + 1, out);
    return out(cv::Rect(0, 0, 4000, 3000)).clone();
  }();
  return tiled;
}

// The same pixels in R, G, B order for gpuhist.
const cv::Mat& photo_rgb() {
  static const cv::Mat rgb = [] {
    cv::Mat out;
    cv::cvtColor(photo_bgr(), out, cv::COLOR_BGR2RGB);
    return out;
  }();
  return rgb;
}

gpuhist::ImageView view_of(const cv::Mat& m) {
  return gpuhist::ImageView{m.data,
                            static_cast<std::uint32_t>(m.cols),
                            static_cast<std::uint32_t>(m.rows),
                            m.step,
                            {gpuhist::ChannelLayout::RGB, gpuhist::SampleType::U8}};
}

void report_pixels(benchmark::State& state, const cv::Mat& m) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(m.total()));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(m.total() * 3));
}

void BM_gpuhist_cpu(benchmark::State& state) {
  const gpuhist::ImageView view = view_of(photo_rgb());
  const gpuhist::HistogramOptions options{256, gpuhist::LumaWeights::Rec601};
  for (auto _ : state) benchmark::DoNotOptimize(gpuhist::cpu::count_parallel(view, options));
  report_pixels(state, photo_rgb());
}

void BM_gpuhist_cpu_reference(benchmark::State& state) {
  const gpuhist::ImageView view = view_of(photo_rgb());
  const gpuhist::HistogramOptions options{256, gpuhist::LumaWeights::Rec601};
  for (auto _ : state) benchmark::DoNotOptimize(gpuhist::cpu::count_reference(view, options));
  report_pixels(state, photo_rgb());
}

void BM_opencv_calcHist(benchmark::State& state) {
  const cv::Mat& bgr = photo_bgr();
  const int size[] = {256};
  const float range[] = {0, 256};
  const float* ranges[] = {range};
  cv::Mat hist[4];
  cv::Mat grey;
  for (auto _ : state) {
    for (int c = 0; c < 3; ++c) {
      const int channel[] = {c};
      cv::calcHist(&bgr, 1, channel, cv::Mat(), hist[c], 1, size, ranges);
    }
    cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
    const int channel[] = {0};
    cv::calcHist(&grey, 1, channel, cv::Mat(), hist[3], 1, size, ranges);
    benchmark::DoNotOptimize(hist[3].data);
  }
  report_pixels(state, bgr);
}

// A floor, not a histogram: only the four counter updates per pixel (the
// red sample stands in for the luminance bin, so no luminance is computed),
// into four private copies per thread as the `cpu` strategy counts, its rows
// split across threads as it splits them. `update(counter, y)` is the update.
template <typename Update>
void floor_four_updates(benchmark::State& state, Update update) {
  const cv::Mat& rgb = photo_rgb();
  const auto rows = static_cast<std::uint32_t>(rgb.rows);
  const std::uint32_t threads =
      gpuhist::cpu::count_threads(static_cast<std::uint32_t>(rgb.cols), rows);
  for (auto _ : state) {
    std::vector<std::vector<std::uint32_t>> counts(threads, std::vector<std::uint32_t>(4 * 1024));
    gpuhist::for_row_parts(rows, threads, [&](std::uint32_t t, std::uint32_t y0, std::uint32_t y1) {
      std::uint32_t* h = counts[t].data();
      for (std::uint32_t y = y0; y < y1; ++y) {
        const std::uint8_t* px = rgb.ptr<std::uint8_t>(static_cast<int>(y));
        for (int x = 0; x + 4 <= rgb.cols; x += 4, px += 12) {
          for (int k = 0; k < 4; ++k) {
            std::uint32_t* c = h + k * 1024;
            update(c[px[3 * k]], y);
            update(c[256 + px[3 * k + 1]], y);
            update(c[512 + px[3 * k + 2]], y);
            update(c[768 + px[3 * k]], y);
          }
        }
      }
    });
    benchmark::DoNotOptimize(counts.front().data());
  }
  report_pixels(state, rgb);
}

// The four increments: no counting of the same four histograms can beat it.
void BM_floor_four_increments(benchmark::State& state) {
  floor_four_updates(state, [](std::uint32_t& counter, std::uint32_t) { ++counter; });
}

// The four updates as plain stores (no loads, no adds): where this takes as
// long as the increments, counting is bound by the stores alone.
void BM_floor_four_stores(benchmark::State& state) {
  floor_four_updates(state, [](std::uint32_t& counter, std::uint32_t y) { counter = y; });
}

// Not kept, measured: two stores per pixel instead of four. Each thread counts
// (red, green) and (blue, luminance) pairs in two tables of 65536 counters and
// adds their rows and columns up at the end; the luminance bin comes from the
// `cpu` strategy's tables. Exact (checked against the `cpu` strategy), but the
// tables (512 KiB a thread) do not fit the L1 cache as four 256-bin histograms do.
void BM_pair_tables(benchmark::State& state) {
  const cv::Mat& rgb = photo_rgb();
  const auto rows = static_cast<std::uint32_t>(rgb.rows);
  const std::uint32_t threads =
      gpuhist::cpu::count_threads(static_cast<std::uint32_t>(rgb.cols), rows);
  // Rec.601, as in BM_gpuhist_cpu.
  const gpuhist::HistogramOptions options{256, gpuhist::LumaWeights::Rec601};
  const gpuhist::cpu::LumaTables luma(options);
  constexpr unsigned kShift = gpuhist::cpu::LumaTables::kShift;
  // Each thread's tables and its four histograms, made once; cleared every run.
  std::vector<std::vector<std::uint32_t>> tables(threads, std::vector<std::uint32_t>(2 * 65536));
  std::vector<std::vector<std::uint64_t>> sums(threads, std::vector<std::uint64_t>(4 * 256));
  std::vector<std::uint64_t> counts(4 * 256);
  for (auto _ : state) {
    gpuhist::for_row_parts(rows, threads, [&](std::uint32_t t, std::uint32_t y0, std::uint32_t y1) {
      std::uint32_t* rg = tables[t].data();
      std::uint32_t* bl = rg + 65536;
      std::fill(tables[t].begin(), tables[t].end(), 0);
      for (std::uint32_t y = y0; y < y1; ++y) {
        const std::uint8_t* px = rgb.ptr<std::uint8_t>(static_cast<int>(y));
        for (int x = 0; x < rgb.cols; ++x, px += 3) {
          const std::uint32_t r = px[0], g = px[1], b = px[2];
          const auto l = std::min<std::uint32_t>(
              static_cast<std::uint32_t>((luma.r[r] + luma.g[g] + luma.b[b]) >> kShift), 255);
          ++rg[r << 8 | g];
          ++bl[b << 8 | l];
        }
      }
      // Rows of a table are its first channel's bins, columns its second's.
      std::uint64_t* h = sums[t].data();
      std::fill(sums[t].begin(), sums[t].end(), 0);
      for (std::uint32_t a = 0; a < 256; ++a) {
        for (std::uint32_t c = 0; c < 256; ++c) {
          h[a] += rg[a << 8 | c];
          h[256 + c] += rg[a << 8 | c];
          h[512 + a] += bl[a << 8 | c];
          h[768 + c] += bl[a << 8 | c];
        }
      }
    });
    std::fill(counts.begin(), counts.end(), 0);
    for (const auto& h : sums) {
      for (std::size_t i = 0; i < counts.size(); ++i) counts[i] += h[i];
    }
    benchmark::DoNotOptimize(counts.data());
  }
  const gpuhist::Histogram expected = gpuhist::cpu::count_parallel(view_of(rgb), options);
  for (std::uint32_t c = 0; c < 4; ++c) {
    const auto bins = expected.counts(gpuhist::kAllChannels[c]);
    if (!std::equal(bins.begin(), bins.end(), counts.begin() + 256 * c)) {
      state.SkipWithError("pair tables differ from the cpu strategy");
    }
  }
  report_pixels(state, rgb);
}

}  // namespace

BENCHMARK(BM_gpuhist_cpu)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_floor_four_increments)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_floor_four_stores)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_pair_tables)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_gpuhist_cpu_reference)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_opencv_calcHist)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
