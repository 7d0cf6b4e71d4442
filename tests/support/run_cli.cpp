#include "support/run_cli.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

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

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

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

bool ffmpeg(const std::string& args) {
  return std::system(("ffmpeg -nostdin -loglevel error -y " + args).c_str()) == 0;
}

CliResult run_cli(const std::vector<std::string>& args, const std::vector<std::string>& env) {
  const std::filesystem::path dir = temp_dir();
  std::string command;
  if (!env.empty()) {
    command = "env";
    for (const auto& setting : env) command += " " + quote(setting);
    command += " ";
  }
  command += quote(GPUHIST_BINARY);
  for (const auto& arg : args) command += " " + quote(arg);
  command += " > " + quote((dir / "out").string()) + " 2> " + quote((dir / "err").string()) +
             " < /dev/null";
  const int raw = std::system(command.c_str());
  CliResult result;
  if (WIFEXITED(raw))
    result.status = WEXITSTATUS(raw);
  else if (WIFSIGNALED(raw))
    result.status = 128 + WTERMSIG(raw);
  result.out = slurp(dir / "out");
  result.err = slurp(dir / "err");
  std::filesystem::remove_all(dir);
  return result;
}

}  // namespace gpuhist::test
