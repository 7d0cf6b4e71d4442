#include "inputs.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <system_error>

#include "batch.hpp"
#include "common_options.hpp"
#include "decode_worker.hpp"
#include "exit_codes.hpp"
#include "messages.hpp"
#include "quiet_stderr.hpp"

namespace gpuhist::cli {

namespace {

// Adds the image files under `folder` to `found`, its subfolders too; a
// folder that cannot be listed is a problem, and its siblings are still searched.
void search(const std::filesystem::path& folder, FormatSet formats,
            std::vector<std::filesystem::path>& found, std::vector<std::string>& problems) {
  std::error_code ec;
  std::filesystem::directory_iterator it(folder, ec);
  std::vector<std::filesystem::path> subfolders;
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::error_code type;
    if (it->is_directory(type)) {
      if (!it->is_symlink(type)) subfolders.push_back(it->path());
    } else if (has_image_extension(it->path(), formats)) {
      // A link to a file that is not there is kept, to be reported as
      // missing, and a pipe or device named as an image, to be reported as
      // not a regular file, as either is when named on its own.
      found.push_back(it->path());
    }
  }
  if (ec) problems.push_back(folder.string() + ": cannot list the folder: " + ec.message());
  for (const auto& sub : subfolders) search(sub, formats, found, problems);
}

}  // namespace

InputList expand_inputs(const std::vector<std::string>& arguments, FormatSet formats) {
  InputList list;
  for (const std::string& argument : arguments) {
    const std::filesystem::path path(argument);
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      list.files.push_back(path);
      continue;
    }
    list.from_folder = true;
    std::vector<std::filesystem::path> found;
    const std::size_t problems = list.problems.size();
    search(path, formats, found, list.problems);
    if (found.empty() && list.problems.size() == problems) {
      list.problems.push_back(argument + ": no image files in this folder");
    }
    std::sort(found.begin(), found.end());
    list.files.insert(list.files.end(), found.begin(), found.end());
  }
  return list;
}

int report_problems(const InputList& inputs) {
  for (const std::string& problem : inputs.problems) {
    std::cerr << "gpuhist: error: " << problem << '\n';
  }
  return inputs.problems.empty() ? kExitOk : kExitInput;
}

Image load_input(const std::filesystem::path& path, const ReadOptions& options) {
  const LoadOptions load{options.max_pixels, options.alpha, options.formats};
  if (options.isolate || (options.formats == FormatSet::All && common_format_of(path).empty())) {
    static DecodeWorker worker;
    return worker.load(path, load);
  }
  const QuietStderr quiet;
  return load_image(path, load);
}

InputDecoder::InputDecoder(const std::vector<std::filesystem::path>& files,
                           const ReadOptions& options)
    : files_(
          files, [options](const std::filesystem::path& path) { return load_input(path, options); },
          options.isolate || options.formats == FormatSet::All ? 1U : 0U) {}

Image InputDecoder::next() {
  std::optional<Image> image = files_.next();
  if (!image) throw std::logic_error("InputDecoder::next: past the last file");
  return std::move(*image);
}

void add_read_options(CLI::App* cmd, ReadOptions& options, std::string& formats) {
  cmd->add_option("--max-pixels", options.max_pixels,
                  "Refuse images with more pixels than this (checked before decoding)")
      ->capture_default_str()
      ->transform(whole_number());
  cmd->add_option("--formats", formats,
                  "common: JPEG, PNG, TIFF, WebP, OpenEXR, GIF, BMP, PNM, HDR, Targa, DPX; all: "
                  "also every other format the image library reads (less hardened; decoded in a "
                  "separate process)")
      ->capture_default_str();
  cmd->add_flag(
      "--isolate", options.isolate,
      "Decode every file in a separate process, so a decoder that crashes costs one file");
}

bool parse_read_options(const std::string& formats, ReadOptions& options) {
  if (formats != "common" && formats != "all") {
    usage_error("unknown --formats '" + formats + "' (common, all)");
    return false;
  }
  options.formats = formats == "all" ? FormatSet::All : FormatSet::Common;
  return true;
}

void warn_about_file(const std::filesystem::path& path, const Image& image) {
  if (!image.warning.empty()) {
    std::cerr << "gpuhist: warning: " << one_line(path.string()) << ": "
              << one_line(damage_warning(image.warning)) << '\n';
  }
  for (const std::string& note : reading_notes(image)) {
    std::cerr << "gpuhist: warning: " << one_line(path.string()) << ": " << one_line(note) << '\n';
  }
}

std::optional<Image> load_option_image(std::string_view option, const std::filesystem::path& path,
                                       const ReadOptions& options, int& status) {
  BatchStatus batch;
  std::optional<Image> image;
  (void)batch.run(path, [&] {
    try {
      image = load_input(path, options);
    } catch (const Error& e) {
      // Which picture it was, where it may be one of the inputs too.
      throw Error(e.kind(), std::string(option) + " " + e.what(),
                  options.optioned ? e.remedy() : Remedy::None);
    }
    warn_about_file(path, *image);
  });
  status = batch.status();
  return image;
}

}  // namespace gpuhist::cli
