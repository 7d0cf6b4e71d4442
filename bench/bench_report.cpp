// The benchmark's report (bench_runner.hpp) as a table or as JSON.
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_runner.hpp"
#include "gpuhist/version.hpp"

namespace gpuhist::bench {
namespace {

std::string fixed(double v, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

// The host-memory stream's rows.
void print_stream(const Report& report, std::ostream& out) {
  out << "host-memory stream (gpu strategy, RGBA8 photo frames)\n"
      << std::left << std::setw(12) << "size" << std::setw(8) << "mode" << std::right
      << std::setw(8) << "frames" << std::setw(11) << "in flight" << std::setw(7) << "batch"
      << std::setw(8) << "queues" << std::setw(10) << "fps" << std::setw(9) << "GB/s"
      << std::setw(10) << "% upload"
      << "  check\n";
  for (const StreamRow& r : report.stream) {
    out << std::left << std::setw(12) << (std::to_string(r.width) + "x" + std::to_string(r.height))
        << std::setw(8) << r.mode << std::right << std::setw(8) << r.frames << std::setw(11)
        << r.in_flight << std::setw(7) << r.batch << std::setw(8) << r.queues << std::setw(10)
        << fixed(r.fps, 1) << std::setw(9) << fixed(r.gbps, 1) << std::setw(10)
        << fixed(r.upload_percent, 1) << "  " << r.check << '\n';
  }
}

// One image in host memory to counts: each way against the bus time of its bytes.
void print_host(const Report& report, std::ostream& out) {
  out << "host memory to counts (RGBA8, 256 bins, random pixels; wall time of one call)\n"
      << "a call's fixed costs: an empty submission and its wait "
      << fixed(report.empty_submission_ms, 3) << " ms; a descriptor set made and released "
      << fixed(report.storage_set_ms, 3) << " ms\n"
      << std::left << std::setw(13) << "size" << std::setw(14) << "memory" << std::setw(34) << "way"
      << std::right << std::setw(10) << "wall ms" << std::setw(9) << "GB/s" << std::setw(9)
      << "bus ms" << std::setw(9) << "x bus"
      << "  check\n";
  for (const HostRow& r : report.host) {
    out << std::left << std::setw(13) << (std::to_string(r.width) + "x" + std::to_string(r.height))
        << std::setw(14) << r.memory << std::setw(34) << r.way << std::right << std::setw(10)
        << fixed(r.ms, 3) << std::setw(9) << fixed(r.gbps, 1) << std::setw(9)
        << (r.bus_ms > 0 ? fixed(r.bus_ms, 3) : "-") << std::setw(9)
        << (r.bus_ms > 0 ? fixed(r.ms / r.bus_ms, 2) : "-") << "  " << r.check << '\n';
  }
}

}  // namespace

void print_table(const Report& report, std::ostream& out) {
  out << "date " << report.date << '\n';
  if (report.device) {
    out << "device " << report.device->name << " (" << gpuhist::to_string(report.device->type)
        << "), driver " << report.device->driver_name << ' ' << report.device->driver_info
        << ", Vulkan " << report.device->api_version << '\n'
        << "device copy rate " << fixed(report.copy_gbps, 1) << " GB/s (read + write; "
        << fixed(report.copy_small_gbps, 1) << " GB/s for 64 MiB); host-to-device upload "
        << fixed(report.upload_gbps, 1) << " GB/s; shader copy "
        << fixed(report.shader_copy_gbps, 1) << " GB/s (read + write); shader read "
        << fixed(report.shader_read_gbps, 1) << " GB/s\n";
  } else {
    out << "device none (CPU strategies only)\n";
  }
  if (!report.rows.empty()) {
    out << std::left << std::setw(12) << "size" << std::setw(8) << "format" << std::setw(7)
        << "bins" << std::setw(11) << "data" << std::setw(19) << "strategy" << std::right
        << std::setw(10) << "GPU ms" << std::setw(10) << "wall ms" << std::setw(9) << "GB/s"
        << std::setw(9) << "Gpix/s" << std::setw(8) << "% copy" << std::setw(8) << "% read"
        << "  check\n";
    for (const Row& r : report.rows) {
      out << std::left << std::setw(12)
          << (std::to_string(r.width) + "x" + std::to_string(r.height)) << std::setw(8)
          << to_string(r.format) << std::setw(7) << r.bins << std::setw(11) << to_string(r.kind)
          << std::setw(19) << std::string(gpuhist::to_string(r.strategy)) << std::right
          << std::setw(10) << (r.gpu_ms ? fixed(*r.gpu_ms, 3) : "-") << std::setw(10)
          << (r.wall_ms ? fixed(*r.wall_ms, 2) : "-") << std::setw(9) << fixed(r.gbps, 1)
          << std::setw(9) << fixed(r.gpixels, 2) << std::setw(8)
          << (r.gpu_ms ? fixed(r.copy_percent, 1) : "-") << std::setw(8)
          << (r.gpu_ms ? fixed(r.read_percent, 1) : "-") << "  " << r.check;
      if (!r.variant.empty()) out << "  [" << r.variant << "]";
      out << '\n';
    }
  }
  if (!report.stream.empty()) print_stream(report, out);
  if (!report.host.empty()) print_host(report, out);
  if (report.adjust.empty()) return;
  out << "adjustments (photo frames, host memory to host memory: count, tables, apply)\n"
      << std::left << std::setw(12) << "size" << std::setw(8) << "format" << std::setw(11)
      << "adjust" << std::setw(8) << "applied" << std::right << std::setw(10) << "wall ms"
      << std::setw(10) << "fps"
      << "  check\n";
  for (const AdjustRow& r : report.adjust) {
    out << std::left << std::setw(12) << (std::to_string(r.width) + "x" + std::to_string(r.height))
        << std::setw(8) << r.format << std::setw(11) << r.kind << std::setw(8) << r.applied
        << std::right << std::setw(10) << fixed(r.ms, 2) << std::setw(10) << fixed(r.fps, 1) << "  "
        << r.check << '\n';
  }
}

void print_json(const Report& report, std::ostream& out) {
  // What this run did not measure (no device, a phase not run) is null, not 0.
  const auto measured = [](double v) { return v > 0 ? nlohmann::ordered_json(v) : nullptr; };
  nlohmann::ordered_json j;
  j["date"] = report.date;
  j["gpuhist"] = gpuhist::kVersion;  // what made the figures, and how many runs each took
  j["repetitions"] = report.repetitions;
  if (report.device) {
    j["device"] = {{"name", report.device->name},
                   {"type", gpuhist::to_string(report.device->type)},
                   {"driver", report.device->driver_name + " " + report.device->driver_info},
                   {"vulkan", report.device->api_version}};
  } else {
    j["device"] = nullptr;
  }
  j["copy_gbps"] = measured(report.copy_gbps);
  j["copy_64mib_gbps"] = measured(report.copy_small_gbps);
  j["upload_gbps"] = measured(report.upload_gbps);
  j["shader_copy_gbps"] = measured(report.shader_copy_gbps);
  j["shader_read_gbps"] = measured(report.shader_read_gbps);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const Row& r : report.rows) {
    nlohmann::ordered_json row;
    row["width"] = r.width;
    row["height"] = r.height;
    row["format"] = to_string(r.format);
    row["bins"] = r.bins;
    row["data"] = to_string(r.kind);
    row["strategy"] = std::string(gpuhist::to_string(r.strategy));
    if (!r.variant.empty()) row["variant"] = r.variant;
    row["gpu_ms"] = r.gpu_ms ? nlohmann::ordered_json(*r.gpu_ms) : nullptr;
    row["wall_ms"] = r.wall_ms ? nlohmann::ordered_json(*r.wall_ms) : nullptr;
    row["gbps"] = r.gbps;
    row["gpixels_per_s"] = r.gpixels;
    row["copy_percent"] = r.gpu_ms ? nlohmann::ordered_json(r.copy_percent) : nullptr;
    row["read_percent"] = r.gpu_ms ? nlohmann::ordered_json(r.read_percent) : nullptr;
    row["check"] = r.check;
    rows.push_back(std::move(row));
  }
  j["rows"] = std::move(rows);
  nlohmann::ordered_json stream = nlohmann::ordered_json::array();
  for (const StreamRow& r : report.stream) {
    stream.push_back({{"width", r.width},
                      {"height", r.height},
                      {"mode", r.mode},
                      {"frames", r.frames},
                      {"in_flight", r.in_flight},
                      {"frames_per_submission", r.batch},
                      {"queues", r.queues},
                      {"fps", r.fps},
                      {"gbps", r.gbps},
                      {"upload_percent", r.upload_percent},
                      {"check", r.check}});
  }
  j["stream"] = std::move(stream);
  nlohmann::ordered_json adjust = nlohmann::ordered_json::array();
  for (const AdjustRow& r : report.adjust) {
    adjust.push_back({{"width", r.width},
                      {"height", r.height},
                      {"format", r.format},
                      {"adjust", r.kind},
                      {"applied", r.applied},
                      {"wall_ms", r.ms},
                      {"fps", r.fps},
                      {"check", r.check}});
  }
  j["adjust"] = std::move(adjust);
  nlohmann::ordered_json host = nlohmann::ordered_json::array();
  for (const HostRow& r : report.host) {
    host.push_back({{"width", r.width},
                    {"height", r.height},
                    {"memory", r.memory},
                    {"way", r.way},
                    {"wall_ms", r.ms},
                    {"gbps", r.gbps},
                    {"bus_ms", measured(r.bus_ms)},
                    {"check", r.check}});
  }
  j["host"] = std::move(host);
  j["empty_submission_ms"] = measured(report.empty_submission_ms);
  j["storage_set_ms"] = measured(report.storage_set_ms);
  out << j.dump(2) << '\n';
}

}  // namespace gpuhist::bench
