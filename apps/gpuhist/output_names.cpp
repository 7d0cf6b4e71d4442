#include "output_names.hpp"

#include "gpuhist/image_file.hpp"
#include "gpuhist/output_file.hpp"
#include "messages.hpp"

#include <iostream>
#include <map>
#include <set>
#include <string>
#include <system_error>

#include <sys/stat.h>

namespace gpuhist::cli {
namespace {

// Where an input is, for telling inputs of one stem apart.
struct Place {
  // The names of the folders above it as written, nearest first, from the
  // current folder's where it is relative, ".." taken as written
  // (`a/../b/x.png` names b, then the current folder's names).
  std::vector<std::string> above;
  // The folder it is in, the same for every way of naming it (`x.png`,
  // `./x.png`, `a/../x.png`, a link to the folder), where it can be resolved.
  std::filesystem::path folder;
};

Place place_of(const std::filesystem::path& input) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(input, error);
  if (error) absolute = input;
  const std::filesystem::path written = absolute.lexically_normal().parent_path();
  Place out;
  for (std::filesystem::path p = written; !p.empty() && p.has_filename(); p = p.parent_path()) {
    const std::filesystem::path name = p.filename();
    if (name != "." && name != "..") out.above.push_back(name.string());
  }
  out.folder = std::filesystem::weakly_canonical(absolute.parent_path(), error);
  if (error) out.folder = written;
  return out;
}

}  // namespace

std::vector<std::filesystem::path> output_names(const std::filesystem::path& output,
                                                const std::vector<std::filesystem::path>& inputs,
                                                bool several) {
  std::vector<std::filesystem::path> names;
  if (output.empty()) return names;
  if (!several && inputs.size() <= 1)
    return std::vector<std::filesystem::path>(inputs.size(), output);
  std::vector<std::string> labels;
  for (const auto& input : inputs) labels.push_back(input.stem().string());
  // Labels shared by several inputs take one more folder each round, unless
  // those inputs are all in the same folder (the same file named twice),
  // where no folder tells them apart.
  std::vector<Place> places;
  for (const auto& input : inputs) places.push_back(place_of(input));
  // How many folder names each input's label has taken.
  std::vector<std::size_t> taken_folders(inputs.size(), 0);
  for (;;) {
    // Whether the inputs of each label are in more than one folder.
    std::map<std::string, std::size_t> first;
    std::set<std::string> apart;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const auto [it, added] = first.emplace(labels[i], i);
      if (!added && places[i].folder != places[it->second].folder) apart.insert(labels[i]);
    }
    bool grew = false;
    std::vector<std::string> next = labels;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (apart.count(labels[i]) == 0) continue;
      const auto& above = places[i].above;
      if (taken_folders[i] < above.size()) {
        next[i] = above[taken_folders[i]++] + "-" + labels[i];
        grew = true;
      }
    }
    if (!grew) break;
    labels = next;
  }
  // The same file twice, or folders with the same names: numbered in order.
  std::set<std::string> taken;
  for (auto& label : labels) {
    std::string name = label;
    for (std::size_t n = 2; taken.count(name) != 0; ++n) name = label + "-" + std::to_string(n);
    taken.insert(name);
    label = name;
  }
  for (const auto& label : labels) {
    std::filesystem::path out = output;
    out.replace_filename(output.stem().string() + "-" + label + output.extension().string());
    names.push_back(out);
  }
  return names;
}

std::string renamed_output_note(const std::filesystem::path& output,
                                const std::filesystem::path& input,
                                const std::filesystem::path& written) {
  if (written == output) return {};
  std::filesystem::path plain = output;
  plain.replace_filename(output.stem().string() + "-" + input.stem().string() +
                         output.extension().string());
  if (written == plain) return {};
  return "gpuhist: " + one_line(input.string()) + ": written as " + one_line(written.string()) +
         " (its own name would clash with another output)";
}

void print_renamed_output(const std::filesystem::path& output, const std::filesystem::path& input,
                          const std::filesystem::path& written) {
  const std::string note = renamed_output_note(output, input, written);
  if (!note.empty()) std::cerr << note << '\n';
}

std::string overwritten_input(const std::vector<std::filesystem::path>& outputs,
                              const std::vector<std::filesystem::path>& inputs,
                              bool may_replace_own) {
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if ((o != i || !may_replace_own) && same_file(outputs[o], inputs[i])) {
        return outputs[o].string() + ": the output is one of the inputs (" + inputs[i].string() +
               ")";
      }
    }
  }
  return {};
}

std::string missing_output_folder(const std::vector<std::filesystem::path>& outputs) {
  for (const std::filesystem::path& output : outputs) {
    const std::filesystem::path folder = output.parent_path();
    if (folder.empty()) continue;
    std::error_code ec;
    const auto status = std::filesystem::status(folder, ec);
    if (ec == std::errc::permission_denied) continue;  // said by the write, with its cause
    if (!std::filesystem::exists(status) || !std::filesystem::is_directory(status)) {
      const std::errc cause = std::filesystem::exists(status) || ec == std::errc::not_a_directory
                                  ? std::errc::not_a_directory
                                  : std::errc::no_such_file_or_directory;
      return one_line(output.string()) + ": cannot write: " + std::make_error_code(cause).message();
    }
  }
  return {};
}

std::string unwritable_image_name(const std::filesystem::path& output, bool several) {
  if (output.empty()) return {};
  if (output == "-") {
    return "-o -: an image goes to a file (such as OUT.png), or as PNG to a pipe named "
           "/dev/stdout";
  }
  std::error_code ec;
  if (std::filesystem::is_directory(output, ec)) {
    return output.string() + ": is a folder: -o names the image written (FOLDER/NAME.png; with " +
           "several inputs, FOLDER/NAME.png gives FOLDER/NAME-<input>.png)";
  }
  const std::string cause = image_write_refusal(output);
  if (cause.empty()) return {};
  // A single target written in place (/dev/null, a pipe) takes PNG; a
  // pattern's names (pipe-x) are files to be made, which need a format.
  if (!several && written_in_place(output)) return {};
  return output.string() + ": " + cause +
         " (formats written: such as .png, .jpg, .tif, .webp, .exr, .bmp, .tga, .ppm, .gif)";
}

std::string shared_output(const std::vector<std::filesystem::path>& outputs) {
  // Each output's file, found once: an existing file by its device and inode
  // (a hard link too), one yet to be written by its resolved name (through
  // links and "..").
  std::map<std::string, std::size_t> files;
  for (std::size_t j = 0; j < outputs.size(); ++j) {
    std::string key;
    struct stat st {};
    if (::stat(outputs[j].c_str(), &st) == 0) {
      key = "file " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    } else {
      std::error_code ec;
      const std::filesystem::path resolved = std::filesystem::weakly_canonical(outputs[j], ec);
      key = "name " + (ec ? outputs[j] : resolved).string();
    }
    const auto [at, added] = files.emplace(std::move(key), j);
    if (!added) {
      const std::filesystem::path& first = outputs[at->second];
      const std::string also = first == outputs[j] ? "" : " (also named " + first.string() + ")";
      return outputs[j].string() + ": this run would write two of its outputs to this one file" +
             also;
    }
  }
  return {};
}

}  // namespace gpuhist::cli
