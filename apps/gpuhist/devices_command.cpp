#include "devices_command.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "exit_codes.hpp"
#include "gpuhist/device_info.hpp"

namespace gpuhist::cli {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : " ") + item;
  return out;
}

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

nlohmann::ordered_json device_json(const DeviceInfo& d) {
  nlohmann::ordered_json j;
  j["index"] = d.index;
  j["name"] = d.name;
  j["type"] = to_string(d.type);
  j["api_version"] = d.api_version;
  j["driver_name"] = d.driver_name;
  j["driver_info"] = d.driver_info;
  j["vendor_id"] = d.vendor_id;
  j["device_id"] = d.device_id;
  j["max_invocations"] = d.max_invocations;
  j["max_workgroup_size"] = d.max_workgroup_size;
  j["max_workgroup_count"] = d.max_workgroup_count;
  j["max_shared_memory"] = d.max_shared_memory;
  j["subgroup_size"] = d.subgroup_size;
  j["subgroup_operations"] = d.subgroup_operations;
  j["timestamps"] = d.timestamps;
  j["timestamp_period_ns"] = d.timestamp_period_ns;
  j["max_storage_buffer_range"] = d.max_storage_buffer_range;
  j["device_local_memory"] = d.device_local_memory;
  j["compute_units"] = d.compute_units ? nlohmann::ordered_json(*d.compute_units) : nullptr;
  return j;
}

}  // namespace

CLI::App* add_devices_command(CLI::App& app, DevicesArgs& args) {
  CLI::App* cmd = app.add_subcommand("devices", "List Vulkan devices and their compute limits");
  cmd->add_option("--format", args.format, "table or json")->capture_default_str();
  return cmd;
}

int run_devices(const DevicesArgs& args) {
  if (args.format != "table" && args.format != "json") {
    std::cerr << "gpuhist: error: unknown --format '" << args.format << "' (table, json)\n";
    return kExitUsage;
  }
  const auto devices = list_devices();
  if (args.format == "json") {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& d : devices) list.push_back(device_json(d));
    std::cout << list.dump(2) << '\n';
    return kExitOk;
  }
  if (devices.empty()) {
    std::cout << "No Vulkan device found; the cpu strategies are available.\n";
    return kExitOk;
  }
  for (const auto& d : devices) {
    const auto& size = d.max_workgroup_size;
    const auto& count = d.max_workgroup_count;
    std::cout << d.index << ": " << d.name << " (" << to_string(d.type) << ")\n"
              << "   driver              " << d.driver_name << ' ' << d.driver_info << ", Vulkan "
              << d.api_version << '\n'
              << "   max invocations     " << d.max_invocations << '\n'
              << "   max workgroup size  " << size[0] << " x " << size[1] << " x " << size[2]
              << '\n'
              << "   max workgroup count " << count[0] << " x " << count[1] << " x " << count[2]
              << '\n'
              << "   shared memory       " << d.max_shared_memory << " bytes\n"
              << "   subgroup size       " << d.subgroup_size << " (" << join(d.subgroup_operations)
              << ")\n"
              << "   compute units       "
              << (d.compute_units ? std::to_string(*d.compute_units) : std::string("not reported"))
              << '\n'
              << "   timestamps          "
              << (d.timestamps ? "yes, " + std::to_string(d.timestamp_period_ns) + " ns per tick"
                               : std::string("no"))
              << '\n'
              << "   storage buffer max  " << mib(d.max_storage_buffer_range) << '\n'
              << "   device memory       " << mib(d.device_local_memory) << '\n';
  }
  return kExitOk;
}

}  // namespace gpuhist::cli
