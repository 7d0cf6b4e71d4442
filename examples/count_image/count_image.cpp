// Counts one image file's histograms with gpuhist and prints them: the
// smallest program built on the installed library (find_package(gpuhist)).
//
//   count_image FILE [BINS] [DEVICE] [STRATEGY]
//
// prints one line per channel, "CHANNEL: c0 c1 ... c(BINS-1)", then the
// device and strategy used. DEVICE is "auto" (a hardware GPU, else Vulkan's
// software device, else the CPU), "cpu", an index or part of a device name;
// STRATEGY one of the ladder's ("gpu", "cpu", ...; default: the device's best).
#include <gpuhist/gpuhist.hpp>
#include <gpuhist/image_file.hpp>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

namespace {

int usage() {
  std::cerr << "usage: count_image FILE [BINS] [DEVICE] [STRATEGY]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 5) return usage();
  const std::string file = argv[1];
  const std::string device = argc > 3 ? argv[3] : "auto";
  gpuhist::HistogramOptions options;
  if (argc > 2) {
    char* end = nullptr;
    const unsigned long bins = std::strtoul(argv[2], &end, 10);
    if (*end != '\0' || bins < 1 || bins > 65536) return usage();
    options.bins = static_cast<std::uint32_t>(bins);
  }
  std::optional<gpuhist::Strategy> asked;
  if (argc > 4) {
    asked = gpuhist::parse_strategy(argv[4]);
    if (!asked) return usage();
  }
  try {
    // One context for the program's life: it owns the device and its pipelines.
    const gpuhist::Context context = gpuhist::Context::open(device);
    const gpuhist::Image image = gpuhist::load_image(file);
    const gpuhist::Strategy strategy = asked.value_or(context.default_strategy());
    const gpuhist::Histogram histogram =
        context.compute(image.view(), options, gpuhist::RunOptions{strategy});

    for (const gpuhist::Channel channel : gpuhist::kAllChannels) {
      if (!histogram.has(channel)) continue;  // grey images have luminance only
      std::cout << gpuhist::to_string(channel) << ':';
      for (const std::uint64_t count : histogram.counts(channel)) std::cout << ' ' << count;
      std::cout << '\n';
    }
    const gpuhist::DeviceInfo* info = context.device();
    std::cerr << "counted " << image.width << "x" << image.height << " with "
              << gpuhist::to_string(strategy) << " on " << (info ? info->name : "the CPU") << '\n';
    return 0;
  } catch (const gpuhist::Error& e) {
    // Every failure is a gpuhist::Error with a kind; the library never prints.
    std::cerr << "count_image: " << e.what() << '\n';
    return e.kind() == gpuhist::ErrorKind::Input ? 1 : 3;
  }
}
