#include "support/run_cli.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace gpuhist::test {
namespace {

std::string quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

}  // namespace

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<unsigned char> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void expect_one_line_error(const CliResult& r, const std::string& needle) {
  EXPECT_EQ(r.err.rfind("gpuhist: error: ", 0), 0U) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

std::string temp_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "gpuhist-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

// The yardsticks run without the malloc checks some tests run under
// (tests/CMakeLists.txt), which are for gpuhist's own handing of buffers to
// its decoders, not for the fixtures ffmpeg makes.
constexpr const char* kUnchecked = "env -u LD_PRELOAD -u GLIBC_TUNABLES ";

bool ffmpeg(const std::string& args) {
  return std::system((std::string(kUnchecked) + "ffmpeg -nostdin -loglevel error -y " + args)
                         .c_str()) == 0;
}

std::optional<std::string> ffprobe(const std::string& args, const std::filesystem::path& file) {
  FILE* pipe = popen(
      (std::string(kUnchecked) + "ffprobe -v error " + args + " " + quote(file.string())).c_str(),
      "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[4096];
  while (const std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe))
    out.append(buffer, got);
  if (pclose(pipe) != 0) return std::nullopt;
  return out;
}

bool damaged_mjpeg_clip(const std::string& folder, const std::string& damaged) {
  const std::filesystem::path clip = std::filesystem::path(folder) / "undamaged.avi";
  if (!ffmpeg("-f lavfi -i testsrc=size=64x48:rate=10 -frames:v 10 -c:v mjpeg '" + clip.string() +
              "'")) {
    return false;
  }
  std::string data = file_text(clip);
  const std::string soi("\xff\xd8\xff", 3);
  std::size_t at = 0;
  for (int frame = 0; frame <= 5 && at != std::string::npos; ++frame) {
    at = data.find(soi, frame == 0 ? 0 : at + 3);
  }
  if (at == std::string::npos) return false;
  const std::size_t end = data.find(std::string("\xff\xd9", 2), at);
  if (end == std::string::npos) return false;
  std::fill(data.begin() + static_cast<std::ptrdiff_t>(at),
            data.begin() + static_cast<std::ptrdiff_t>(end + 2), '\0');
  std::ofstream out(damaged, std::ios::binary);
  out << data;
  return static_cast<bool>(out.flush());
}

CliResult run_cli(const std::vector<std::string>& args, const std::vector<std::string>& env,
                  const std::filesystem::path& piped) {
  const std::filesystem::path dir = temp_dir();
  std::string command = piped.empty() ? "" : "cat " + quote(piped.string()) + " | ";
  if (!env.empty()) {
    command += "env";
    for (const auto& setting : env) command += " " + quote(setting);
    command += " ";
  }
  command += quote(GPUHIST_BINARY);
  for (const auto& arg : args) command += " " + quote(arg);
  command += " > " + quote((dir / "out").string()) + " 2> " + quote((dir / "err").string()) +
             (piped.empty() ? " < /dev/null" : "");
  const int raw = std::system(command.c_str());
  CliResult result;
  if (WIFEXITED(raw))
    result.status = WEXITSTATUS(raw);
  else if (WIFSIGNALED(raw))
    result.status = 128 + WTERMSIG(raw);
  result.out = file_text(dir / "out");
  result.err = file_text(dir / "err");
  std::filesystem::remove_all(dir);
  return result;
}

std::string command_output(const std::string& command) {
  std::string said;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 4096> chunk{};
    while (std::fgets(chunk.data(), static_cast<int>(chunk.size()), pipe) != nullptr) {
      said += chunk.data();
    }
    pclose(pipe);
  }
  return said;
}

}  // namespace gpuhist::test
