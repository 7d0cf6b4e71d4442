// `gpuhist devices`: every Vulkan device with the limits that size the kernels.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace gpuhist::cli {

struct DevicesArgs {
  std::string format = "table";
};

CLI::App* add_devices_command(CLI::App& app, DevicesArgs& args);
int run_devices(const DevicesArgs& args);

}  // namespace gpuhist::cli
