// gpuhist.Context and the module's functions: counting arrays, comparing,
// drawing, adjusting, the devices (image files: file_functions.cpp).
#include "functions.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <chrono>

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "arrays.hpp"
#include "errors.hpp"
#include "gpuhist/adjust.hpp"
#include "gpuhist/adjust_image.hpp"
#include "gpuhist/compare.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/device_info.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/render.hpp"
#include "histogram_type.hpp"

namespace py = pybind11;

namespace gpuhist::python {

LumaWeights luma_weights(const std::string& luma) {
  const auto weights = parse_luma(luma);
  if (!weights) throw py::value_error("gpuhist: luma is '709' or '601', not '" + luma + "'");
  return *weights;
}

namespace {

HistogramOptions histogram_options(Whole bins, const Name& luma) {
  HistogramOptions options;
  options.bins = static_cast<std::uint32_t>(within(bins, "bins", 1, 65536));
  options.luma = luma_weights(luma);
  validate(options);
  return options;
}

RunOptions run_options(const std::optional<std::string>& strategy, const Context& context) {
  RunOptions run;
  if (strategy) {
    run.strategy = parse_strategy(*strategy);
    if (!run.strategy) throw py::value_error("gpuhist: unknown strategy '" + *strategy + "'");
    if (runs_on_gpu(*run.strategy) && context.device() == nullptr) {
      throw Error(ErrorKind::Device,
                  "gpuhist: strategy " + *strategy +
                      " needs a Vulkan device, and this context has none (device=\"cpu\", "
                      "or no Vulkan device was found)");
    }
  }
  return run;
}

// The module's contexts, one per device name, opened on first use, and the
// locks around them. Never destroyed: closing Vulkan devices from static
// destructors after the interpreter has finalised could run after what they
// need is gone. A forked child starts afresh (forget_after_fork): the parent's
// devices do not work there, destroying them could hang, and a lock a
// parent's thread held at the fork would never be released.
struct Contexts {
  std::mutex* mutex = new std::mutex;  // NOLINT(cppcoreguidelines-owning-memory)
  std::map<std::string, std::shared_ptr<const Context>>* open =
      new std::map<std::string, std::shared_ptr<const Context>>;
  std::mutex* reopen = new std::mutex;  // SharedContext::context's
};

Contexts* contexts_now = nullptr;

void forget_after_fork() {
  contexts_now = new Contexts;  // NOLINT(cppcoreguidelines-owning-memory): the parent's leak
}

Contexts& contexts() {
  static const bool registered = [] {
    contexts_now = new Contexts;  // NOLINT(cppcoreguidelines-owning-memory)
    return ::pthread_atfork(nullptr, nullptr, &forget_after_fork) == 0;
  }();
  (void)registered;
  return *contexts_now;
}

std::shared_ptr<const Context> shared_context_unlocked(const std::string& device) {
  Contexts& c = contexts();
  const std::lock_guard lock(*c.mutex);
  auto& slot = (*c.open)[device];
  if (!slot) slot = std::make_shared<const Context>(Context::open(device));
  return slot;
}

std::shared_ptr<const Context> shared_context(const std::string& device) {
  // Waited for without the GIL: the thread opening a device gives it up.
  const py::gil_scoped_release release;
  return shared_context_unlocked(device);
}

}  // namespace

std::function<void()> interrupt_poll() {
  static const unsigned long main_thread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  if (PyThread_get_thread_ident() != main_thread) return {};
  auto last =
      std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
  return [last] {
    const auto now = std::chrono::steady_clock::now();
    if (now - *last < std::chrono::milliseconds(20)) return;
    *last = now;
    const py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  };
}

std::uint64_t max_pixels_of(Whole max_pixels) {
  return static_cast<std::uint64_t>(within(max_pixels, "max_pixels", 1, INT64_MAX));
}

std::shared_ptr<const Context> SharedContext::context() const {
  const long process = ::getpid();
  if (process_.load() == process) {
    const std::lock_guard lock(*contexts().reopen);
    return context_;
  }
  // Opened before a fork: the parent's is kept (never destroyed here), a new one
  // opened, without the GIL (taken only after the lock is given up: no thread
  // waits for the GIL while holding it).
  std::optional<py::gil_scoped_release> release;
  if (PyGILState_Check() != 0) release.emplace();
  const std::lock_guard lock(*contexts().reopen);
  if (process_.load() != process) {
    new std::shared_ptr<const Context>(std::move(context_));  // NOLINT: left to the parent
    context_ = shared ? shared_context_unlocked(requested)
                      : std::make_shared<const Context>(Context::open(requested));
    process_.store(process);
  }
  return context_;
}

SharedContext::~SharedContext() {
  if (context_ && process_.load() != ::getpid()) {
    new std::shared_ptr<const Context>(std::move(context_));  // NOLINT: left to the parent
  }
}

void SharedContext::set_context(std::shared_ptr<const Context> context) {
  Contexts& c = contexts();
  const std::lock_guard lock(*c.reopen);
  context_ = std::move(context);
  process_.store(::getpid());
}

HistogramOptions SharedContext::options(Whole bins, const Name& luma) {
  return histogram_options(bins, luma);
}

RunOptions SharedContext::run(const std::optional<std::string>& strategy) const {
  return run_options(strategy, *context());
}

Histogram SharedContext::histogram(const ArrayLike& image, Whole bins, const Name& luma,
                                   const std::optional<std::string>& strategy) const {
  const HistogramOptions options = histogram_options(bins, luma);
  const std::shared_ptr<const Context> counter = context();
  RunOptions run = run_options(strategy, *counter);
  run.poll = interrupt_poll();
  ArrayPixels pixels(image);
  // No pixels, no counts, as numpy counts an empty array.
  if (pixels.empty()) return Histogram(options.bins, is_colour(pixels.view().format.layout));
  py::gil_scoped_release release;
  const ArrayPixels::Counted plan = pixels.counted();
  Histogram total = counter->compute(pixels.block(0), options, run);
  for (std::size_t i = 1; i < plan.blocks; ++i) {
    if (run.poll) run.poll();
    total += counter->compute(pixels.block(i), options, run);
  }
  if (plan.times > 1) {
    for (Channel channel : total.channels()) {
      for (std::uint64_t& count : total.counts(channel)) count *= plan.times;
    }
  }
  return total;
}

py::array SharedContext::draw(const Histogram& histogram, WholePair size, const std::string& scale,
                              const std::vector<std::string>& channels, Whole background) const {
  DrawOptions options;
  options.width = static_cast<std::uint32_t>(within(size.first, "size's width", 1, kMaxDrawSize));
  options.height =
      static_cast<std::uint32_t>(within(size.second, "size's height", 1, kMaxDrawSize));
  const auto mode = parse_scale_mode(scale);
  if (!mode) throw py::value_error("gpuhist: scale is 'clip', 'max' or 'log', not '" + scale + "'");
  options.scale = *mode;
  options.channels = 0;
  for (const std::string& c : channels) {
    if (c == "red")
      options.channels |= kDrawRed;
    else if (c == "green")
      options.channels |= kDrawGreen;
    else if (c == "blue")
      options.channels |= kDrawBlue;
    else if (c == "luminance")
      options.channels |= kDrawLuminance;
    else if (const auto letters = parse_draw_channels(c))  // the command line's: "rgb", "l"
      options.channels |= *letters;
    else
      throw py::value_error("gpuhist: unknown channel '" + c +
                            "' (red, green, blue or luminance, or letters of 'rgbl' as the "
                            "command line's --channels)");
  }
  options.background = static_cast<std::uint32_t>(within(background, "background", 0, 0xFFFFFF));
  validate(options);
  Picture picture;
  {
    py::gil_scoped_release release;
    const std::shared_ptr<const Context> drawer = context();
    picture = drawer->device() != nullptr ? drawer->draw(histogram, options)
                                          : draw_cpu(histogram, options);
  }
  py::array_t<std::uint8_t> out({static_cast<py::ssize_t>(picture.height),
                                 static_cast<py::ssize_t>(picture.width), py::ssize_t{4}});
  std::memcpy(out.mutable_data(), picture.rgba.data(), picture.rgba.size());
  return out;
}

SharedContext::Adjusted SharedContext::adjust(const ArrayLike& image,
                                              const Adjustment& adjustment) const {
  ArrayPixels pixels(image, ArrayPixels::Dtypes::Integers);
  if (pixels.empty())
    throw py::value_error("gpuhist: the image is empty: it has no pixels to adjust");
  const PixelFormat out_format = adjusted_format(pixels.view().format, adjustment);
  const std::size_t row = std::size_t{pixels.view().width} * pixel_bytes(out_format);
  const py::dtype dtype = dtype_of(out_format.sample);
  // The input's shape: (H, W) stays (H, W) and (H, W, 1) stays (H, W, 1).
  std::vector<py::ssize_t> shape = {pixels.view().height, pixels.view().width};
  const std::size_t channels = channel_count(out_format.layout);
  const bool grey_axis = pixels.channel_axis() && channel_count(pixels.view().format.layout) == 1;
  if (channels > 1 || grey_axis) shape.push_back(static_cast<py::ssize_t>(channels));
  Adjusted out{py::array(dtype, shape), std::nullopt};
  auto* bytes = static_cast<std::byte*>(out.image.mutable_data());
  {
    py::gil_scoped_release release;
    pixels.pack();
    const std::shared_ptr<const Context> adjuster = context();
    const bool gpu = adjuster->hardware();
    out.threshold = adjust_image(*adjuster, pixels.view(), adjustment,
                                 std::span<std::byte>(bytes, row * pixels.view().height), {}, gpu);
  }
  return out;
}

std::shared_ptr<SharedContext> open_context(const Name& device) {
  auto out = std::make_shared<SharedContext>();
  out->requested = device.value;
  {
    py::gil_scoped_release release;
    out->set_context(std::make_shared<const Context>(Context::open(device.value)));
  }
  return out;
}

std::shared_ptr<SharedContext> shared_of(const py::object& self) {
  (void)self.cast<const SharedContext&>();  // refuses an object that never ran __init__
  return self.cast<std::shared_ptr<SharedContext>>();
}

std::shared_ptr<SharedContext> default_context(const std::optional<Name>& device) {
  auto out = std::make_shared<SharedContext>();
  out->requested = device ? device->value : std::string("auto");
  out->shared = true;
  out->set_context(shared_context(out->requested));
  return out;
}

py::dict compare_histograms(const Histogram& histogram, const Histogram& reference) {
  if (histogram.bins() != reference.bins()) {
    throw py::value_error("gpuhist: compared histograms need the same bins");
  }
  py::dict out;
  for (Channel c : histogram.channels()) {
    if (!reference.has(c)) continue;
    const Comparison m = compare(histogram.counts(c), reference.counts(c));
    py::dict d;
    d["correlation"] = m.correlation;
    d["chi_square"] = m.chi_square;
    d["intersection"] = m.intersection;
    d["bhattacharyya"] = m.bhattacharyya;
    d["kl_divergence"] = m.kl_divergence;
    d["emd"] = m.emd;
    out[py::str(std::string(to_string(c)))] = d;
  }
  return out;
}

py::list devices() {
  std::vector<DeviceInfo> list;
  {
    py::gil_scoped_release release;
    list = list_devices();
  }
  py::list out;
  for (const DeviceInfo& d : list) {
    py::dict row;
    row["index"] = d.index;
    row["name"] = d.name;
    row["type"] = std::string(to_string(d.type));
    row["hardware"] = d.hardware();
    row["vulkan"] = d.api_version;
    row["driver"] = d.driver_name + " " + d.driver_info;
    row["device_local_memory"] = d.device_local_memory;
    out.append(row);
  }
  return out;
}

}  // namespace gpuhist::python
