// The `cpu` strategy against OpenCV on a 12-megapixel photograph: gpuhist's
// four histograms (R, G, B and luminance) in one pass, against OpenCV's
// calcHist of the three colour planes plus cvtColor to grey and its calcHist.
// OpenCV is a yardstick only: gpuhist itself never links it.
//
//   bench_cpu [--benchmark_filter=...]   (Google Benchmark options)
#include <benchmark/benchmark.h>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "cpu/parallel.hpp"
#include "cpu/reference.hpp"
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

}  // namespace

BENCHMARK(BM_gpuhist_cpu)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_gpuhist_cpu_reference)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_opencv_calcHist)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
