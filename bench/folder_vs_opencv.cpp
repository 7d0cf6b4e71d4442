// A folder of image files to histograms, against decoding alone and against
// OpenCV, in one run on the same cores: what `gpuhist compute FOLDER` does
// (decoding on every core, in order, counting on the caller's thread), the
// same files only decoded on every core (by gpuhist's readers, by OpenImageIO's
// ImageInput and by cv::imread, a thread per core), and a plain OpenCV program
// (cv::imread, calcHist of the three planes, cvtColor to grey and its
// calcHist) on one thread and on a thread per core. OpenImageIO's and OpenCV's
// rows are yardsticks only.
//
//   bench_folder FOLDER [REPETITIONS]     (best of REPETITIONS, default 3)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <OpenImageIO/imageio.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "gpuhist/context.hpp"
#include "gpuhist/decode_files.hpp"
#include "gpuhist/image_file.hpp"

namespace fs = std::filesystem;

namespace {

double best_seconds(int repetitions, const std::function<void()>& run) {
  double best = 1e30;
  for (int i = 0; i < repetitions; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                              .count());
  }
  return best;
}

std::uint64_t opencv_histograms(const fs::path& path) {
  const cv::Mat bgr = cv::imread(path.string(), cv::IMREAD_COLOR);
  if (bgr.empty()) return 0;
  const int size[] = {256};
  const float range[] = {0, 256};
  const float* ranges[] = {range};
  cv::Mat hist[4];
  for (int c = 0; c < 3; ++c) {
    const int channel[] = {c};
    cv::calcHist(&bgr, 1, channel, cv::Mat(), hist[c], 1, size, ranges);
  }
  cv::Mat grey;
  cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
  const int channel[] = {0};
  cv::calcHist(&grey, 1, channel, cv::Mat(), hist[3], 1, size, ranges);
  return static_cast<std::uint64_t>(cv::sum(hist[3])[0]);
}

// The file's pixels as OpenImageIO reads them, its stored format, into a buffer
// the thread keeps (as gpuhist's readers keep theirs: on a VM a new buffer's
// page faults cost as much as decoding); their count.
std::uint64_t oiio_decode(const fs::path& path) {
  auto in = OIIO::ImageInput::open(path.string());
  if (!in) return 0;
  const OIIO::ImageSpec& spec = in->spec();
  thread_local std::vector<unsigned char> pixels;
  if (pixels.size() < spec.image_bytes()) pixels.resize(spec.image_bytes());
  if (!in->read_image(0, 0, 0, spec.nchannels, spec.format, pixels.data())) return 0;
  return static_cast<std::uint64_t>(spec.width) * static_cast<std::uint64_t>(spec.height);
}

std::uint64_t opencv_decode(const fs::path& path) {
  const cv::Mat bgr = cv::imread(path.string(), cv::IMREAD_COLOR);
  return bgr.total();
}

// `work` of every file on `threads` threads, each taking the next file; the sum.
std::uint64_t on_threads(const std::vector<fs::path>& files, unsigned threads,
                         std::uint64_t (*work)(const fs::path&)) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::uint64_t> pixels{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < files.size();) pixels += work(files[i]);
    });
  }
  for (std::thread& thread : pool) thread.join();
  return pixels;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_folder FOLDER [REPETITIONS]\n");
    return 2;
  }
  const int repetitions = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(argv[1])) {
    if (entry.is_regular_file() && gpuhist::has_image_extension(entry.path())) files.push_back(entry);
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "bench_folder: no image files in %s\n", argv[1]);
    return 1;
  }
  cv::setNumThreads(1);  // one file per thread, as a script or a process pool runs them
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  const auto load = [](const fs::path& path) { return gpuhist::load_image(path); };
  const gpuhist::Context cpu = gpuhist::Context::open("cpu");
  const gpuhist::Context automatic = gpuhist::Context::open("auto");

  std::uint64_t decoded_pixels = 0, counted_pixels = 0, opencv_pixels = 0;
  const double decode = best_seconds(repetitions, [&] {
    decoded_pixels = 0;
    gpuhist::DecodeFiles decoder(files, load);
    while (auto image = decoder.next()) decoded_pixels += image->view().pixel_count();
  });
  const auto counting = [&](const gpuhist::Context& context, unsigned threads) {
    return best_seconds(repetitions, [&] {
      counted_pixels = 0;
      gpuhist::DecodeFiles decoder(files, load, threads);
      while (auto image = decoder.next()) {
        const gpuhist::Histogram h = context.compute(image->view());
        counted_pixels += h.total(gpuhist::Channel::Luminance);
      }
    });
  };
  const double on_cpu = counting(cpu, 0);
  const double on_auto = counting(automatic, 0);
  const double one_thread = counting(cpu, 1);
  std::uint64_t oiio_pixels = 0, imread_pixels = 0;
  const double oiio =
      best_seconds(repetitions, [&] { oiio_pixels = on_threads(files, cores, &oiio_decode); });
  const double imread =
      best_seconds(repetitions, [&] { imread_pixels = on_threads(files, cores, &opencv_decode); });
  const double opencv_one =
      best_seconds(repetitions, [&] { opencv_pixels = on_threads(files, 1, &opencv_histograms); });
  const double opencv_all =
      best_seconds(repetitions, [&] { (void)on_threads(files, cores, &opencv_histograms); });
  if (counted_pixels != decoded_pixels || opencv_pixels != decoded_pixels ||
      oiio_pixels != decoded_pixels || imread_pixels != decoded_pixels) {
    std::fprintf(stderr,
                 "bench_folder: pixel totals differ: decoded %llu, counted %llu, OpenCV %llu, "
                 "OpenImageIO %llu, imread %llu\n",
                 static_cast<unsigned long long>(decoded_pixels),
                 static_cast<unsigned long long>(counted_pixels),
                 static_cast<unsigned long long>(opencv_pixels),
                 static_cast<unsigned long long>(oiio_pixels),
                 static_cast<unsigned long long>(imread_pixels));
    return 1;
  }
  const double n = static_cast<double>(files.size());
  std::printf("%zu files, %.1f Mpixels, %u cores, best of %d\n", files.size(),
              static_cast<double>(decoded_pixels) / 1e6, cores, repetitions);
  std::printf("%-44s %8s %10s %10s\n", "path", "seconds", "files/s", "vs gpuhist");
  const auto row = [&](const char* name, double s) {
    std::printf("%-44s %8.3f %10.1f %9.2fx\n", name, s, n / s, s / on_cpu);
  };
  row("gpuhist: decode on every core + count (cpu)", on_cpu);
  row("gpuhist: the same, --device auto", on_auto);
  row("gpuhist: decode on one thread + count (cpu)", one_thread);
  row("decode only, every core (gpuhist's readers)", decode);
  row("decode only, every core (OpenImageIO)", oiio);
  row("decode only, every core (OpenCV imread)", imread);
  row("OpenCV imread + calcHist x4, one thread", opencv_one);
  row("OpenCV imread + calcHist x4, every core", opencv_all);
  std::printf(
      "throughput vs decode only: %.2f (gpuhist's readers), %.2f (OpenImageIO), %.2f (OpenCV "
      "imread); vs OpenCV one thread: %.2fx; every core: %.2fx\n",
      decode / on_cpu, oiio / on_cpu, imread / on_cpu, opencv_one / on_cpu, opencv_all / on_cpu);
  return 0;
}
