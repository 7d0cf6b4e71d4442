#include "bench_cli.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "gpuhist/error.hpp"
#include "gpuhist/histogram_options.hpp"
#include "gpuhist/image_view.hpp"

namespace gpuhist::bench {
namespace {

// A count written in decimal digits, leading zeros dropped: CLI11 would read
// "010" as octal, "0x10" as hexadecimal.
CLI::Validator decimal() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
          return "'" + text + "' is not a whole number";
        }
        const std::size_t first = text.find_first_not_of('0');
        text = first == std::string::npos ? "0" : text.substr(first);
        return "";
      },
      "N");
}

}  // namespace

void add_bench_options(CLI::App& app, BenchArgs& args) {
  app.add_flag("--quick", args.quick,
               "Small sizes and few repetitions (under a minute on a software device)");
  app.add_flag("--tune", args.tune, "Sweep the gpu strategy's knobs on the largest size");
  app.add_flag("--e2e", args.e2e,
               "Only one image in host memory to counts, each way it reaches the device, "
               "against the bus time and the cpu strategy (--sizes sets the sizes)");
  app.add_option("--format", args.format, "table or json")->capture_default_str();
  app.add_option("-o,--output", args.output, "Write the report to FILE");
  app.add_option("--device", args.device, "auto, cpu, a device index or a name substring")
      ->capture_default_str();
  app.add_option("--photo", args.photo, "Photograph tiled into the 'photo' images");
  app.add_option("--sizes", args.sizes, "Image sizes, WxH (default: a standard set)")
      ->delimiter(',');
  app.add_option("--strategies", args.strategies, "Strategies to time (default: all)")
      ->delimiter(',');
  app.add_option("--data", args.kinds, "random, one-colour, photo (default: all)")->delimiter(',');
  app.add_option("--cases", args.cases,
                 "Pixel formats and bin counts, FORMAT:BINS (e.g. rgba8:256,rgba16:65536); the "
                 "first on every size, the others on the largest (default: a standard set)")
      ->delimiter(',');
  app.add_option("--repetitions", args.repetitions, "Timed runs per measurement")
      ->check(CLI::Range(1U, 100000U))
      ->transform(decimal());
  app.add_option("--stream-sizes", args.stream_sizes,
                 "Frame sizes of the host-memory stream, WxH, or none (default: 1920x1080, "
                 "3840x2160, 7680x4320; the smallest of --sizes when given)")
      ->delimiter(',');
  app.add_option("--stream-frames", args.stream_frames, "Frames per stream run (default 60)")
      ->check(CLI::Range(1U, 100000U))
      ->transform(decimal());
  app.add_option("--stream-in-flight", args.stream_in_flight,
                 "Frames submitted at once in the stream, 1 to 64 (default 3)")
      ->check(CLI::Range(1U, 64U))
      ->transform(decimal());
  app.add_option("--stream-queues", args.stream_queues,
                 "Queues the stream's frames take in turn, 1 or 2 (default 1; 2 where the "
                 "device has them)")
      ->check(CLI::Range(1U, 2U))
      ->transform(decimal());
  app.add_option("--stream-batch", args.stream_batch,
                 "Frames counted by one submission of the stream, 1 to 64 (default 1)")
      ->check(CLI::Range(1U, 64U))
      ->transform(decimal());
  app.add_option("--stream-copy-threads", args.stream_copy_threads,
                 "Threads copying each frame into its slot in the push mode, 1 to 256 (default: "
                 "one per 4 MiB, up to the hardware threads)")
      ->check(CLI::Range(1U, 256U))
      ->transform(decimal());
  app.add_option("--adjust-sizes", args.adjust_sizes,
                 "Frame sizes of the adjustments (equalize, clahe, autolevel, threshold, match), "
                 "WxH or none (default: 1920x1080, 3840x2160; the smallest of --sizes when given)")
      ->delimiter(',');
  app.add_option("--adjust-formats", args.adjust_formats,
                 "Pixel formats of the adjusted frames, 8- or 16-bit: grey8, rgb8, rgba16, … "
                 "(default rgb8)")
      ->delimiter(',');
  app.add_option("--stream-memory", args.stream_memory,
                 "Where the stream's frames are kept: cached (host-cached memory) or upload "
                 "(plain host-coherent memory)")
      ->capture_default_str();
}

namespace {

int usage(const std::string& message) {
  std::cerr << "gpuhist: error: " << message << '\n';
  return 2;
}

// "grey8", "rgb16", "rgba32f", … as to_string(PixelFormat) names them.
std::optional<PixelFormat> parse_format(const std::string& name) {
  for (const ChannelLayout layout :
       {ChannelLayout::Grey, ChannelLayout::RGB, ChannelLayout::RGBA}) {
    for (const SampleType sample : {SampleType::U8, SampleType::U16, SampleType::F32}) {
      if (to_string(PixelFormat{layout, sample}) == name) return PixelFormat{layout, sample};
    }
  }
  return std::nullopt;
}

}  // namespace

int run_bench(const BenchArgs& args, const std::function<Photo(const std::string&)>& load_photo) {
  if (args.format != "table" && args.format != "json") {
    return usage("unknown --format '" + args.format + "' (table, json)");
  }
  Config config = default_config(args.quick);
  config.device = args.device;
  config.tune = args.tune;
  if (args.repetitions > 0) config.repetitions = args.repetitions;
  using Sizes = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  // WxH, each side 1..kMostSide and at most kMostPixels in all (a 16384x65536
  // RGBA8 image is 4 GiB); digits alone (no sign).
  constexpr std::uint32_t kMostSide = 65536;
  constexpr std::uint64_t kMostPixels = std::uint64_t{1} << 30;
  const auto parse_sizes = [&](const std::vector<std::string>& texts,
                               Sizes& sizes) -> std::optional<std::string> {
    sizes.clear();
    for (const std::string& text : texts) {
      std::uint32_t w = 0, h = 0;
      const char* const end = text.data() + text.size();
      const auto [after_w, w_error] = std::from_chars(text.data(), end, w);
      if (w_error != std::errc{} || after_w == end || *after_w != 'x') return text;
      const auto [after_h, h_error] = std::from_chars(after_w + 1, end, h);
      if (h_error != std::errc{} || after_h != end || w == 0 || h == 0 || w > kMostSide ||
          h > kMostSide || std::uint64_t{w} * h > kMostPixels) {
        return text;
      }
      sizes.emplace_back(w, h);
    }
    return std::nullopt;
  };
  const std::string size_rule =
      "WxH, each side from 1 to " + std::to_string(kMostSide) + ", at most 2^30 pixels";
  // "none" names no sizes, and is given alone.
  const auto none_among = [](const std::vector<std::string>& texts) -> std::optional<std::string> {
    if (texts.size() < 2 || std::find(texts.begin(), texts.end(), "none") == texts.end()) {
      return std::nullopt;
    }
    std::string list;
    for (const std::string& text : texts) list += (list.empty() ? "" : ",") + text;
    return list;
  };
  for (const auto& [option, texts] : {std::pair{"--stream-sizes", &args.stream_sizes},
                                      std::pair{"--adjust-sizes", &args.adjust_sizes}}) {
    if (const auto list = none_among(*texts)) {
      return usage(std::string("bad ") + option + " '" + *list +
                   "' (none takes no sizes beside it)");
    }
  }
  config.host_only = args.e2e;
  if (args.e2e && args.tune) return usage("--e2e and --tune are separate runs");
  if (!args.sizes.empty()) {
    if (const auto bad = parse_sizes(args.sizes, config.sizes)) {
      return usage("bad --sizes entry '" + *bad + "' (expected " + size_rule + ")");
    }
    config.host_sizes = config.sizes;
    config.stream_sizes = {*std::min_element(
        config.sizes.begin(), config.sizes.end(), [](const auto& a, const auto& b) {
          return std::uint64_t{a.first} * a.second < std::uint64_t{b.first} * b.second;
        })};
    config.adjust_sizes = config.stream_sizes;
  }
  if (args.adjust_sizes == std::vector<std::string>{"none"}) {
    config.adjust_sizes.clear();
  } else if (!args.adjust_sizes.empty()) {
    if (const auto bad = parse_sizes(args.adjust_sizes, config.adjust_sizes)) {
      return usage("bad --adjust-sizes entry '" + *bad + "' (expected " + size_rule + "; or none)");
    }
  }
  if (args.stream_sizes == std::vector<std::string>{"none"}) {
    config.stream_sizes.clear();
  } else if (!args.stream_sizes.empty()) {
    if (const auto bad = parse_sizes(args.stream_sizes, config.stream_sizes)) {
      return usage("bad --stream-sizes entry '" + *bad + "' (expected " + size_rule + "; or none)");
    }
  }
  if (args.stream_frames > 0) config.stream_frames = args.stream_frames;
  if (args.stream_in_flight > 0) config.stream_in_flight = args.stream_in_flight;
  if (args.stream_queues > 2) {
    return usage("bad --stream-queues '" + std::to_string(args.stream_queues) +
                 "' (expected 1 or 2)");
  }
  if (args.stream_queues > 0) config.stream_queues = args.stream_queues;
  if (args.stream_batch > 64) {
    return usage("bad --stream-batch '" + std::to_string(args.stream_batch) +
                 "' (expected 1 to 64)");
  }
  if (args.stream_batch > 0) config.stream_batch = args.stream_batch;
  if (args.stream_copy_threads > 256) {
    return usage("bad --stream-copy-threads '" + std::to_string(args.stream_copy_threads) +
                 "' (expected 1 to 256)");
  }
  config.stream_copy_threads = args.stream_copy_threads;
  if (args.stream_memory != "cached" && args.stream_memory != "upload") {
    return usage("bad --stream-memory '" + args.stream_memory + "' (expected cached or upload)");
  }
  config.stream_cached = args.stream_memory == "cached";
  if (!args.strategies.empty()) {
    config.strategies.clear();
    for (const std::string& name : args.strategies) {
      const auto s = parse_strategy(name);
      if (!s) return usage("unknown strategy '" + name + "'");
      config.strategies.push_back(*s);
    }
  }
  if (!args.kinds.empty()) {
    config.kinds.clear();
    for (const std::string& name : args.kinds) {
      if (name == "random")
        config.kinds.push_back(DataKind::Random);
      else if (name == "one-colour")
        config.kinds.push_back(DataKind::Flat);
      else if (name == "photo")
        config.kinds.push_back(DataKind::Photo);
      else
        return usage("unknown --data '" + name + "' (random, one-colour, photo)");
    }
  }
  if (!args.cases.empty()) {
    config.cases.clear();
    for (const std::string& text : args.cases) {
      const std::size_t colon = text.find(':');
      const std::optional<PixelFormat> format = parse_format(text.substr(0, colon));
      unsigned bins = 0;
      std::istringstream in(colon == std::string::npos ? std::string() : text.substr(colon + 1));
      if (!format || !(in >> bins) || !in.eof() || bins < kMinBins || bins > kMaxBins) {
        return usage("bad --cases entry '" + text +
                     "' (expected FORMAT:BINS, such as rgba8:256 or rgba16:65536, with 1..65536 "
                     "bins)");
      }
      config.cases.push_back({*format, bins});
    }
  }
  if (!args.adjust_formats.empty()) {
    config.adjust_formats.clear();
    for (const std::string& text : args.adjust_formats) {
      const std::optional<PixelFormat> format = parse_format(text);
      if (!format || format->sample == SampleType::F32) {
        return usage("bad --adjust-formats entry '" + text +
                     "' (expected an 8- or 16-bit format, such as rgb8 or rgb16)");
      }
      config.adjust_formats.push_back(*format);
    }
  }
  try {
    if (!args.photo.empty()) config.photo = load_photo(args.photo);
    std::ofstream file;
    if (!args.output.empty()) {
      file.open(args.output);
      if (!file) {
        const int cause = errno;  // (before std::cerr flushes std::cout)
        std::cerr << "gpuhist: error: " << args.output << ": cannot write: " << std::strerror(cause)
                  << '\n';
        return 4;
      }
    }
    std::ostream& out = args.output.empty() ? std::cout : file;
    const Report report = run(config, [](const Row& row) {
      std::cerr << "  " << row.width << 'x' << row.height << ' ' << to_string(row.format) << ' '
                << to_string(row.kind) << ' ' << gpuhist::to_string(row.strategy) << ' '
                << row.variant << ": " << (row.gpu_ms ? *row.gpu_ms : row.wall_ms.value_or(0.0))
                << " ms " << row.check << '\n';
    });
    if (args.format == "json")
      print_json(report, out);
    else
      print_table(report, out);
    errno = 0;
    out.flush();
    if (!args.output.empty()) file.close();
    if (args.output.empty() ? !out : !file) {
      const int cause = errno;
      std::cerr << "gpuhist: error: " << (args.output.empty() ? "<stdout>" : args.output)
                << ": cannot write: "
                << (cause != 0 ? std::strerror(cause) : "the report was not written whole") << '\n';
      return 4;
    }
    const auto mismatch = [](const std::string& check) { return check.rfind("MISMATCH", 0) == 0; };
    for (const Row& row : report.rows) {
      if (mismatch(row.check)) {
        std::cerr << "gpuhist: error: a strategy's counts differed from the cpu strategy\n";
        return 70;
      }
    }
    for (const HostRow& row : report.host) {
      if (mismatch(row.check)) {
        std::cerr << "gpuhist: error: counts from host memory differed from the cpu strategy\n";
        return 70;
      }
    }
    for (const StreamRow& row : report.stream) {
      if (mismatch(row.check)) {
        std::cerr << "gpuhist: error: a streamed frame's counts differed from the cpu strategy\n";
        return 70;
      }
    }
    return 0;
  } catch (const Error& e) {
    std::cerr << "gpuhist: error: " << e.what() << '\n';
    if (e.kind() == ErrorKind::InvalidArgument) return 2;
    if (e.kind() == ErrorKind::Input) return 1;
    return 3;
  }
}

}  // namespace gpuhist::bench
