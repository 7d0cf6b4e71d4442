// What gpuhist does with inputs and outputs that go wrong: decoders that
// crash or are fed crafted headers, outputs that cannot be written or would
// destroy an input, interrupted runs, damaged and truncated streams, and the
// command line's mistakes. Every case checks the exit status, the one-line
// message and what is left on disk.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gpuhist/adjust.hpp"
#include "gpuhist/adjustment.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/image_file.hpp"
#include "support/run_cli.hpp"
#include "support/synthetic_images.hpp"

namespace gpuhist {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using test::expect_one_line_error;
using test::run_cli;

const fs::path kSource = GPUHIST_SOURCE_DIR;
const fs::path kCoffee = kSource / "data/coffee.png";
const fs::path kRocket = kSource / "data/rocket.jpg";
const fs::path kFindings = kSource / "tests/fuzz/regressions";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Where to cut a transport stream so that its last picture is cut off in the middle. Each
// picture's PES starts a 188-byte packet with payload_unit_start set; a cut exactly at such a
// start would leave whole pictures, which no demuxer or decoder can tell from a shorter stream.
// Returns a cut in the third packet of the first picture after the middle that spans at least
// four packets, or 0 if there is none.
std::size_t mid_picture_cut(const std::string& ts, unsigned video_pid) {
  constexpr std::size_t kPacket = 188;
  std::size_t previous = 0;
  for (std::size_t at = ts.size() / 2 / kPacket * kPacket; at + kPacket <= ts.size();
       at += kPacket) {
    const auto b1 = static_cast<unsigned char>(ts[at + 1]);
    const auto b2 = static_cast<unsigned char>(ts[at + 2]);
    if (ts[at] != 0x47 || (b1 & 0x40) == 0 || (((b1 & 0x1Fu) << 8) | b2) != video_pid) continue;
    if (previous != 0 && at - previous >= 4 * kPacket) return previous + 2 * kPacket + kPacket / 2;
    previous = at;
  }
  return 0;
}

class Reliability : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::temp_dir(); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path path(const std::string& name) const { return dir_ / name; }
  // The names in the folder, temporary files included.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
  fs::path copy(const fs::path& from, const std::string& name) const {
    fs::copy_file(from, path(name), fs::copy_options::overwrite_existing);
    return path(name);
  }
  fs::path dir_;
};

TEST_F(Reliability, AMistypedVerbIsAUsageErrorAndWritesNothing) {
  const fs::path out = path("out.png");
  const auto r = run_cli({"equalise", kCoffee.string(), "-o", out.string()});
  EXPECT_EQ(r.status, 2);
  expect_one_line_error(r, "did you mean equalize?");
  EXPECT_FALSE(fs::exists(out));
  // A file of that name is still counted.
  copy(kCoffee, "equalise");
  const auto file = run_cli({path("equalise").string(), "--device", "cpu"});
  EXPECT_EQ(file.status, 0) << file.err;
}

// --plot and -o naming one file (or a plot of several inputs named as the
// output) would leave one of the two: refused before anything is written.
// An image output whose name gives no image format is a usage error, before
// anything is read or written.
TEST_F(Reliability, AnImageOutputNamesItsFormat) {
  for (const std::vector<std::string> args :
       {std::vector<std::string>{"equalize", kCoffee.string(), "-o", path("x.xyz").string()},
        {"threshold", kCoffee.string(), kRocket.string(), "-o", path("noext").string()},
        {"draw", kCoffee.string(), "-o", path("x.mp4").string()},
        {"compute", kCoffee.string(), "--plot", path("p.txt").string()}}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args[0] << ": " << r.err;
    expect_one_line_error(
        r, "(formats written: such as .png, .jpg, .tif, .webp, .exr, .bmp, .tga, .ppm, .gif)");
  }
  EXPECT_TRUE(fs::is_empty(path("")));
  // A folder is not an image's name: said as a folder, for one input or several.
  fs::create_directory(path("folder"));
  fs::create_directory(path("folder.jpg"));
  for (const std::string& folder :
       {path("folder").string(), path("folder").string() + "/", path("folder.jpg").string()}) {
    const auto r = run_cli({"equalize", kCoffee.string(), kRocket.string(), "-o", folder});
    EXPECT_EQ(r.status, 2) << r.err;
    expect_one_line_error(r, folder + ": is a folder: -o names the image written");
  }
  EXPECT_TRUE(fs::is_empty(path("folder")));
  EXPECT_TRUE(fs::is_empty(path("folder.jpg")));
  const auto upper = run_cli({"equalize", kCoffee.string(), "-o", path("ok.PNG").string()});
  EXPECT_EQ(upper.status, 0) << upper.err;
}

// An unknown option is named, whether or not the files it displaced are missing.
TEST_F(Reliability, AnUnknownOptionIsNamed) {
  for (const std::vector<std::string> args : {std::vector<std::string>{"--bogus"},
                                              {"compute", "--bogus"},
                                              {"video", "--bogus"},
                                              {"--bogus", kCoffee.string()}}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args[0];
    expect_one_line_error(r, "--bogus");
  }
  // An option the verb does not have, where the verb takes no further value,
  // and arguments left over, named in the order given.
  const auto bench = run_cli({"bench", "--video", "--bins", "5"});
  EXPECT_EQ(bench.status, 2);
  expect_one_line_error(bench, "unknown option '--bins' (see gpuhist bench --help)");
  const auto extra = run_cli({"devices", "a", "b", "-3"});
  EXPECT_EQ(extra.status, 2);
  expect_one_line_error(extra, "unexpected arguments 'a' 'b' '-3' (see gpuhist devices --help)");
  // A missing file, with nothing unknown, is that.
  const auto missing = run_cli({"draw"});
  EXPECT_EQ(missing.status, 2);
  expect_one_line_error(missing, "is required");
  // An option of one value given twice.
  const auto twice = run_cli({"compute", kCoffee.string(), "--bins", "3", "--bins", "4"});
  EXPECT_EQ(twice.status, 2);
  expect_one_line_error(twice, "--bins: given more than once (see gpuhist compute --help)");
}

TEST_F(Reliability, TwoOutputsOfOneFileAreRefused) {
  fs::create_directories(path("out"));
  const std::string kept = "kept";
  std::ofstream(path("out/v-rocket.png")) << kept;
  const std::vector<std::vector<std::string>> runs = {
      {"compute", kCoffee.string(), "-o", path("out/s.png").string(), "--plot",
       path("out/s.png").string()},
      {"compute", kCoffee.string(), kRocket.string(), "-o",
       path("out/../out/v-rocket.png").string(), "--plot", path("out/v.png").string()},
  };
  for (const auto& args : runs) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << args[2];
    expect_one_line_error(r, "this run would write two of its outputs to this one file");
  }
  EXPECT_FALSE(fs::exists(path("out/s.png")));
  EXPECT_FALSE(fs::exists(path("out/v-coffee.png")));
  EXPECT_EQ(read_file(path("out/v-rocket.png")), kept);
  // Told apart, both are written.
  const auto r =
      run_cli({"compute", kCoffee.string(), "-o", path("out/s.json").string(), "--format", "json",
               "--plot", path("out/s.png").string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(path("out/s.json")) && fs::exists(path("out/s.png")));
}

TEST_F(Reliability, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  const fs::path image = copy(kCoffee, "same.png");
  const std::string before = read_file(image);
  const auto r = run_cli({"compute", image.string(), "-o", image.string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 2);
  expect_one_line_error(r, "the output is one of the inputs");
  EXPECT_EQ(read_file(image), before);

  const fs::path clip = path("clip.mp4");
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=10 -frames:v 5 -pix_fmt yuv420p '" +
                   clip.string() + "'"));
  const std::string video = read_file(clip);
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--overlay"}}) {
    std::vector<std::string> args = {"video",       clip.string(), "-o",
                                     clip.string(), "--device",    "cpu"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto v = run_cli(args);
    EXPECT_EQ(v.status, 2) << v.err;
    expect_one_line_error(v, "the output is the input");
    EXPECT_EQ(read_file(clip), video);
  }
}

// An adjustment may replace its input: the output is complete before it takes the name.
TEST_F(Reliability, AnAdjustmentReplacesItsInputWhole) {
  const fs::path image = copy(kCoffee, "photo.png");
  const Image original = load_image(image);
  const auto r = run_cli({"equalize", image.string(), "-o", image.string(), "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  const Histogram h = Context::open("cpu").compute(original.view(), tone_options(original.format),
                                                   RunOptions{Strategy::CpuReference});
  std::vector<std::byte> expected(original.view().pixel_count() * pixel_bytes(original.format));
  apply_lut_cpu(original.view(), equalize_lut(h, original.format, ToneChannels::Luminance),
                expected);
  EXPECT_EQ(test::pixel_bytes_of(load_image(image).view()), expected);
  EXPECT_EQ(listing(), std::vector<std::string>{"photo.png"});
}

// A replaced output keeps what the user set on it: a link stays a link (the
// file it names is replaced), and a file keeps its permissions.
TEST_F(Reliability, AReplacedOutputKeepsItsLinkAndPermissions) {
  const fs::path image = copy(kCoffee, "photo.png");
  const fs::path real = copy(kRocket, "real.png");
  fs::permissions(real, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink("real.png", path("link.png"));
  const auto r =
      run_cli({"equalize", image.string(), "-o", path("link.png").string(), "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("link.png")));
  EXPECT_EQ(load_image(real).width, load_image(image).width);
  EXPECT_EQ(fs::status(real).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(listing(), (std::vector<std::string>{"link.png", "photo.png", "real.png"}));
  // A link to no file yet makes the file it names, and stays a link; one into a
  // folder that does not exist is an output error, the link left as it was.
  fs::create_directory(path("sub"));
  fs::create_symlink("sub/new.json", path("ahead.json"));
  const auto ahead = run_cli({"compute", image.string(), "--format", "json", "-o",
                              path("ahead.json").string(), "--device", "cpu"});
  ASSERT_EQ(ahead.status, 0) << ahead.err;
  EXPECT_TRUE(fs::is_symlink(path("ahead.json")));
  EXPECT_EQ(json::parse(test::file_text(path("sub/new.json")))["width"], 600);
  fs::create_symlink("nowhere/new.json", path("astray.json"));
  const auto astray = run_cli({"compute", image.string(), "--format", "json", "-o",
                               path("astray.json").string(), "--device", "cpu"});
  EXPECT_EQ(astray.status, 4);
  expect_one_line_error(astray, "astray.json: cannot write: No such file or directory");
  EXPECT_TRUE(fs::is_symlink(path("astray.json")));
  // Someone else's link in a folder everyone may write to (/tmp) is not followed, as the
  // kernel's protected_symlinks rule does not follow it: the output would be made where
  // they chose. (Another owner needs root to make.)
  if (::geteuid() != 0) GTEST_SKIP() << "a link of another user takes root to make";
  fs::create_directory(path("shared"));
  fs::permissions(path("shared"), fs::perms::all | fs::perms::sticky_bit);
  fs::create_symlink("../sub/theirs.json", path("shared/out.json"));
  ASSERT_EQ(::lchown(path("shared/out.json").c_str(), 54321, 54321), 0);
  const auto theirs = run_cli({"compute", image.string(), "--format", "json", "-o",
                               path("shared/out.json").string(), "--device", "cpu"});
  EXPECT_EQ(theirs.status, 4);
  expect_one_line_error(theirs, "owned by another user: not followed");
  EXPECT_FALSE(fs::exists(path("sub/theirs.json")));
  EXPECT_TRUE(fs::is_symlink(path("shared/out.json")));
}

// A pipe would be read twice (the signature, then the decoder); a camera raw
// file is a TIFF container that the TIFF reader would misread.
TEST_F(Reliability, PipesAndCameraRawFilesAreNotReadAsImages) {
  ASSERT_EQ(::mkfifo(path("pipe.png").c_str(), 0600), 0);
  const auto pipe = run_cli({"compute", path("pipe.png").string(), "--device", "cpu"});
  EXPECT_EQ(pipe.status, 1);
  expect_one_line_error(pipe, "pipe.png: not a regular file");
  save_image(path("camera.tif"), load_image(kCoffee).view());
  fs::rename(path("camera.tif"), path("camera.nef"));
  const auto nef = run_cli({"compute", path("camera.nef").string(), "--device", "cpu"});
  EXPECT_EQ(nef.status, 1);
  expect_one_line_error(nef, "camera raw files are not read by default");
}

TEST_F(Reliability, WritesToAFullDiskFailWithTheCauseAndLeaveNothingBehind) {
  // Names whose extension picks the format, on a device that takes no byte.
  // (SGI's and FITS's own writers do not check their writes.)
  for (const char* name :
       {"full.png", "full.jpg", "full.bmp", "full.tif", "full.sgi", "full.rgb", "full.fits"}) {
    fs::create_symlink("/dev/full", path(name));
  }
  const std::vector<std::vector<std::string>> commands = {
      {"compute", kCoffee.string(), "-o", "/dev/full", "--format", "json"},
      {"draw", kCoffee.string(), "-o", path("full.png").string()},
      {"draw", kCoffee.string(), "--report", "-o", path("full.bmp").string()},
      {"equalize", kCoffee.string(), "-o", path("full.jpg").string()},
      {"clahe", kRocket.string(), "-o", path("full.tif").string()},
      {"compute", kCoffee.string(), "--plot", path("full.png").string()},
      {"equalize", kCoffee.string(), "-o", path("full.sgi").string()},
      {"draw", kCoffee.string(), "-o", path("full.rgb").string()},
      {"autolevel", kCoffee.string(), "-o", path("full.fits").string()},
  };
  for (std::vector<std::string> args : commands) {
    args.insert(args.end(), {"--device", "cpu"});
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 4) << args[0] << ": " << r.err;
    expect_one_line_error(r, "No space left on device");
  }
  // Standard output too, whatever the command writes there, with the write's
  // own cause (threshold's rows are followed by warnings on stderr, which is
  // tied to stdout and flushes it first).
  const std::vector<std::string> to_stdout = {
      "compute '" + kCoffee.string() + "' --device cpu", "devices", "--version", "compute --help",
      "threshold '" + kCoffee.string() + "' '" + kRocket.string() + "' --device cpu -o '" +
          path("t.jpg").string() + "'"};
  for (const std::string& args : to_stdout) {
    const std::string err = path("stderr.txt").string();
    const std::string command =
        std::string("'") + GPUHIST_BINARY + "' " + args + " > /dev/full 2>'" + err + "'";
    const int raw = std::system(command.c_str());
    EXPECT_EQ(WEXITSTATUS(raw), 4) << args;
    const std::string said = read_file(err);
    EXPECT_NE(said.find("gpuhist: error: <stdout>: cannot write: No space left on device\n"),
              std::string::npos)
        << args << ": " << said;
  }
  // The pictures were written all the same.
  EXPECT_EQ(load_image(path("t-coffee.jpg")).width, load_image(kCoffee).width);
  EXPECT_EQ(load_image(path("t-rocket.jpg")).width, load_image(kRocket).width);
}

TEST_F(Reliability, APlotThatCannotBeWrittenKeepsTheHistograms) {
  const fs::path out = path("rows.json");
  // The first file's picture cannot be written, the second's can.
  fs::create_symlink("/dev/full", path("plot-coffee.png"));
  const auto r =
      run_cli({"compute", kCoffee.string(), kRocket.string(), "--plot", path("plot.png").string(),
               "-o", out.string(), "--format", "json", "--device", "cpu"});
  EXPECT_EQ(r.status, 4) << r.err;
  const json rows = json::parse(read_file(out));
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0]["file"], kCoffee.string());
  EXPECT_EQ(rows[1]["file"], kRocket.string());
  EXPECT_EQ(load_image(path("plot-rocket.png")).width, 768U);  // a report picture
}

// The most serious failure decides the status, whatever came after it.
TEST_F(Reliability, AnOutputFailureIsNotHiddenByALaterUnreadableInput) {
  fs::create_symlink("/dev/full", path("e-coffee.png"));
  const auto r = run_cli({"equalize", kCoffee.string(), path("missing.png").string(), "-o",
                          path("e.png").string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 4) << r.err;
  EXPECT_NE(r.err.find("No space left"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("missing.png: no such file"), std::string::npos) << r.err;
}

TEST_F(Reliability, OutputsOfInputsWithTheSameNameDoNotOverwriteEachOther) {
  fs::create_directories(path("c1"));
  fs::create_directories(path("c2"));
  fs::copy_file(kCoffee, path("c1/x.png"));
  save_image(path("c2/x.png"), load_image(kRocket).view());
  fs::copy_file(kCoffee, path("y.png"));
  fs::copy_file(kCoffee, path("y-2.png"));
  fs::create_directories(path("e/d"));
  fs::copy_file(kCoffee, path("e/d/c1-x.png"));
  // y.png three times, the third through c1/..: one file, numbered; then
  // y-2.png, whose own name the second y.png took. e/d/c1-x.png meets c1/x.png's
  // c1-x: each takes its next folder (d for it, the test folder's for c1/x.png).
  const auto r =
      run_cli({"equalize", path("c1/x.png").string(), path("c2/x.png").string(),
               path("y.png").string(), path("y.png").string(), path("c1/../y.png").string(),
               path("y-2.png").string(), path("e/d/c1-x.png").string(), "-o",
               path("e.png").string(), "--device", "cpu", "--channels", "each"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string top = dir_.filename().string();
  const Image first = load_image(path("e-" + top + "-c1-x.png"));
  const Image second = load_image(path("e-c2-x.png"));
  EXPECT_EQ(first.width, 600U);
  EXPECT_EQ(second.width, 640U);
  EXPECT_TRUE(fs::exists(path("e-y.png")));
  EXPECT_TRUE(fs::exists(path("e-y-2.png")));
  EXPECT_TRUE(fs::exists(path("e-y-3.png")));
  EXPECT_TRUE(fs::exists(path("e-y-2-2.png")));
  EXPECT_TRUE(fs::exists(path("e-d-c1-x.png")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 12)
      << "c1, c2, e, y.png, y-2.png and seven outputs, nothing else";
  // No output's name is a guess: each name that carries more than the
  // input's own is said, once it is written; the plain one is not.
  const std::string said = " (its own name would clash with another output)\n";
  const auto note = [&](const std::string& input, const std::string& written) {
    return "gpuhist: " + path(input).string() + ": written as " + path(written).string() + said;
  };
  EXPECT_EQ(r.err, note("c1/x.png", "e-" + top + "-c1-x.png") + note("c2/x.png", "e-c2-x.png") +
                       note("y.png", "e-y-2.png") + note("c1/../y.png", "e-y-3.png") +
                       note("y-2.png", "e-y-2-2.png") + note("e/d/c1-x.png", "e-d-c1-x.png"));
}

TEST_F(Reliability, DecodersThatThrowCostOneFileAndTheJsonStaysWhole) {
  const fs::path gif = kFindings / "gif-screen-65535-length-error.gif";
  const fs::path exr = kFindings / "exr-8323104x21-25GB-alloc.exr";
  const auto r = run_cli({"compute", kCoffee.string(), gif.string(), exr.string(), kRocket.string(),
                          "--format", "json", "--device", "cpu"});
  EXPECT_EQ(r.status, 1) << r.err;
  const json rows = json::parse(r.out);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_NE(r.err.find(gif.string() + ": its GIF screen of 65535x65535"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(exr.string() + ": corrupt image: its OpenEXR attribute 'compression'"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
  // With the pixel limit lifted, the decoder's own length error is said as
  // what it is, not in the C++ library's words ("vector::_M_default_append").
  const auto lifted =
      run_cli({gif.string(), "--max-pixels", "18446744073709551615", "--device", "cpu"});
  EXPECT_EQ(lifted.status, 1);
  expect_one_line_error(lifted, gif.string() + ": not enough memory to decode it");
}

// Every input that once crashed a decoder, or made it allocate gigabytes, is
// now one line and status 1 (0 for the files that hold a readable image).
// All of them in one run each way (a crash on one would end it, with no
// status of 0 or 1): each file is counted or named on one line of its own.
TEST_F(Reliability, EveryFuzzFindingIsAnAnswer) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(kFindings)) {
    const fs::path file = entry.path();
    if (file.extension() != ".md" && file.extension() != ".mkv") files.push_back(file.string());
  }
  ASSERT_GT(files.size(), 20U);
  for (const char* formats : {"common", "all"}) {
    std::vector<std::string> args = {"compute"};
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), {"--formats", formats, "--format", "json", "--device", "cpu"});
    const auto r = run_cli(args);
    ASSERT_TRUE(r.status == 0 || r.status == 1) << formats << ": " << r.status << " " << r.err;
    std::set<std::string> counted;
    for (const auto& row : json::parse(r.out.empty() ? "[]" : r.out)) counted.insert(row["file"]);
    std::vector<std::string> lines;
    std::istringstream err(r.err);
    for (std::string line; std::getline(err, line);) {
      if (line.rfind("gpuhist: warning: ", 0) == 0) continue;  // of a file counted
      EXPECT_EQ(line.rfind("gpuhist: error: ", 0), 0U) << line;
      lines.push_back(line);
    }
    for (const std::string& file : files) {
      const auto named = std::count_if(lines.begin(), lines.end(), [&](const std::string& line) {
        return line.rfind("gpuhist: error: " + file + ": ", 0) == 0;
      });
      EXPECT_EQ(named + static_cast<long>(counted.count(file)), 1) << formats << ": " << file;
    }
    EXPECT_EQ(r.status == 1, !lines.empty()) << formats;
  }
}

TEST_F(Reliability, UncommonFormatsAreOptInAndACrashingDecoderCostsOneFile) {
  const fs::path iff = kFindings / "iff-negative-memcpy.iff";
  const auto refused = run_cli({"compute", iff.string(), "--device", "cpu"});
  EXPECT_EQ(refused.status, 1);
  expect_one_line_error(refused,
                        "iff files are not read by default (--formats all tries every format the "
                        "image library reads)");
  // A folder search takes the common formats only.
  copy(iff, "a.iff");
  copy(kCoffee, "b.png");
  const auto folder = run_cli({"compute", dir_.string(), "--format", "json", "--device", "cpu"});
  EXPECT_EQ(folder.status, 0) << folder.err;
  EXPECT_EQ(json::parse(folder.out).size(), 1U);
  // With --formats all the IFF reader runs, in a process of its own: its
  // crash is that file's error, and the files after it are still counted.
  const auto all = run_cli(
      {"compute", dir_.string(), "--formats", "all", "--format", "json", "--device", "cpu"});
  EXPECT_EQ(all.status, 1) << all.err;
  expect_one_line_error(all, "a.iff: the image decoder crashed on it");
  const json rows = json::parse(all.out);
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0]["file"], path("b.png").string());
  // The viewer reads a still picture the same way, before it opens a window.
  const auto view = run_cli({"view", path("a.iff").string(), "--formats", "all"});
  EXPECT_EQ(view.status, 1) << view.err;
  EXPECT_NE(view.err.find("a.iff: the image decoder crashed on it"), std::string::npos) << view.err;
  // --isolate decodes common formats in the separate process too, with the same counts.
  const auto isolated = run_cli(
      {"compute", path("b.png").string(), "--isolate", "--format", "json", "--device", "cpu"});
  const auto direct =
      run_cli({"compute", path("b.png").string(), "--format", "json", "--device", "cpu"});
  ASSERT_EQ(isolated.status, 0) << isolated.err;
  EXPECT_EQ(json::parse(isolated.out)["histograms"], json::parse(direct.out)["histograms"]);
}

TEST_F(Reliability, AFileIsReadByItsSignatureNotItsName) {
  const fs::path misnamed = copy(kCoffee, "really-a-png.jpg");
  const auto r = run_cli({"compute", misnamed.string(), "--format", "json", "--device", "cpu"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["width"], 600);
  std::ofstream(path("notes.png")) << "not an image";
  const auto text = run_cli({"compute", path("notes.png").string(), "--device", "cpu"});
  EXPECT_EQ(text.status, 1);
  expect_one_line_error(text, "not a png file (it does not start as one)");
}

TEST_F(Reliability, AlphaAndPagesAreReported) {
  const test::TestImage rgba =
      test::make_image({ChannelLayout::RGBA, SampleType::U8}, 17, 9, test::Content::Random, 3);
  save_image(path("rgba.png"), rgba.view);
  const auto table = run_cli({"compute", path("rgba.png").string(), "--device", "cpu"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("rgba8 (alpha not counted)"), std::string::npos) << table.out;
  const auto j =
      run_cli({"compute", path("rgba.png").string(), "--format", "json", "--device", "cpu"});
  const json row = json::parse(j.out);
  EXPECT_EQ(row["format"], "rgba8");
  EXPECT_EQ(row["alpha"], "not counted");
  EXPECT_EQ(row["stats"]["luminance"]["count"], 17 * 9);

  ASSERT_EQ(std::system(("oiiotool --pattern constant:color=1,0,0 16x16 3 --pattern "
                         "constant:color=0,1,0 16x16 3 --siappend -d uint8 -o '" +
                         path("pages.tif").string() + "'")
                            .c_str()),
            0);
  const auto pages = run_cli({"compute", path("pages.tif").string(), "--device", "cpu"});
  EXPECT_EQ(pages.status, 0) << pages.err;
  EXPECT_NE(pages.err.find("holds more than one page (or frame); the first is counted"),
            std::string::npos)
      << pages.err;
  // Channels neither counted nor alpha are named, in the process and through the isolating
  // decoder alike; the counts are those of the channels counted.
  ASSERT_EQ(std::system(("oiiotool --pattern constant:color=0.25,0.5,0.75,1,0.125 6x4 5 "
                         "--chnames R,G,B,A,Z -d float -o '" +
                         path("depth.exr").string() + "'")
                            .c_str()),
            0);
  for (const bool isolate : {false, true}) {
    std::vector<std::string> args = {
        "compute", path("depth.exr").string(), "--format", "json", "--bins", "4", "--device",
        "cpu"};
    if (isolate) args.push_back("--isolate");
    const auto depth = run_cli(args);
    EXPECT_EQ(depth.status, 0) << depth.err;
    EXPECT_EQ(depth.err, "gpuhist: warning: " + path("depth.exr").string() +
                             ": its channel Z is not counted (R, G, B counted as RGB)\n");
    const json counted = json::parse(depth.out);
    EXPECT_EQ(counted["format"], "rgba32f");
    EXPECT_EQ(counted["alpha"], "not counted");
    EXPECT_EQ(counted["notes"],
              json::array({"its channel Z is not counted (R, G, B counted as RGB)"}));
    EXPECT_FALSE(counted.contains("warning")) << counted;
    EXPECT_EQ(counted["histograms"]["blue"], json::parse("[0,0,0,24]")) << counted;
  }
  // An animated GIF, WebP or PNG: its first frame, with the warning; a still one has none.
  const std::pair<const char*, const char*> animations[] = {
      {".gif", ""}, {".webp", "-c:v libwebp -loop 0 "}, {".png", "-f apng "}};
  for (const auto& [extension, encoding] : animations) {
    for (const int frames : {3, 1}) {
      const fs::path file = path("anim" + std::to_string(frames) + extension);
      ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=32x24:rate=5 -frames:v " +
                               std::to_string(frames) + " " + encoding + "'" + file.string() +
                               "'"));
      const auto r = run_cli({"compute", file.string(), "--format", "json", "--device", "cpu"});
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.err.find("more than one page") != std::string::npos, frames > 1)
          << extension << " " << frames << ": " << r.err;
      EXPECT_EQ(json::parse(r.out)["stats"]["luminance"]["count"], 32 * 24);
    }
  }
  // An APNG whose animation control comes after 70 KB of text: still found.
  std::string apng = read_file(path("anim3.png"));
  const std::string text = "Comment" + std::string(1, '\0') + std::string(70000, 'x');
  std::string chunk;
  for (const unsigned shift : {24U, 16U, 8U, 0U}) chunk += static_cast<char>(text.size() >> shift);
  chunk += "tEXt" + text;
  std::uint32_t crc = 0xFFFFFFFFU;  // CRC-32 of the type and the data, as PNG's
  for (std::size_t i = 4; i < chunk.size(); ++i) {
    crc ^= static_cast<unsigned char>(chunk[i]);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320U & (0U - (crc & 1U)));
  }
  crc ^= 0xFFFFFFFFU;
  for (const unsigned shift : {24U, 16U, 8U, 0U}) chunk += static_cast<char>(crc >> shift);
  apng.insert(8 + 25, chunk);  // after the signature and IHDR
  std::ofstream(path("late.png"), std::ios::binary) << apng;
  const auto late = run_cli({"compute", path("late.png").string(), "--device", "cpu"});
  EXPECT_EQ(late.status, 0) << late.err;
  EXPECT_NE(late.err.find("more than one page"), std::string::npos) << late.err;
}

TEST_F(Reliability, FileNamesThatAreNotUtf8OrHoldLineBreaks) {
  const fs::path odd = copy(kCoffee, "caf\xE9.png");
  const auto j =
      run_cli({"compute", odd.string(), kRocket.string(), "--format", "json", "--device", "cpu"});
  ASSERT_EQ(j.status, 0) << j.err;
  const json rows = json::parse(j.out);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_NE(rows[0]["file"].get<std::string>().find("caf\xEF\xBF\xBD.png"), std::string::npos);
  const auto r = run_cli({"compute", path("two\nlines.png").string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 1);
  expect_one_line_error(r, "two\\nlines.png: no such file");
  // In the table, such a name is one line too, escaped as in messages.
  const fs::path broken = copy(kCoffee, "two\nlines.png");
  const auto table = run_cli({"compute", broken.string(), "--device", "cpu"});
  ASSERT_EQ(table.status, 0) << table.err;
  EXPECT_EQ(table.out.rfind(path("two\\nlines.png").string() + "  600x400  rgb8", 0), 0U)
      << table.out;
  const auto long_name = run_cli({"compute", std::string(5000, 'a') + ".png", "--device", "cpu"});
  EXPECT_EQ(long_name.status, 1);
  expect_one_line_error(long_name, "file name too long");
  // In CSV, a name holding a carriage return is quoted (RFC 4180: a line break), and one
  // that is not UTF-8 is written as in JSON: every row stays one row, the file UTF-8.
  const fs::path returned = copy(kCoffee, "cr\rx.png");
  const auto csv = run_cli({"compute", returned.string(), odd.string(), "--format", "csv", "--bins",
                            "1", "--device", "cpu"});
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out, "file,bin,red,green,blue,luminance\n\"" + returned.string() +
                         "\",0,240000,240000,240000,240000\n" +
                         path("caf\xEF\xBF\xBD.png").string() + ",0,240000,240000,240000,240000\n");
}

TEST_F(Reliability, TruncatedAndDamagedStreamsAreReportedInEveryContainer) {
  const fs::path mkv = kFindings / "mkv-truncated-half-exit0.mkv";
  const auto r = run_cli({"video", mkv.string(), "--device", "cpu", "--no-progress"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(mkv.string() + ": 1 error in the stream"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("File ended prematurely"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("49 frames in"), std::string::npos) << r.err;
  // A transport stream cut off in a picture, and one with bytes overwritten in the middle.
  const fs::path ts = path("full.ts");
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=320x240:rate=25 -t 4 -c:v libx264 "
                   "-pix_fmt yuv420p '" +
                   ts.string() + "'"));
  std::string bytes = read_file(ts);
  const std::size_t cut = mid_picture_cut(bytes, 0x100);  // FFmpeg's first video PID
  ASSERT_GT(cut, 0U);
  std::ofstream(path("half.ts"), std::ios::binary) << bytes.substr(0, cut);
  for (std::size_t at = bytes.size() / 4; at < bytes.size() * 3 / 4; at += 1777) bytes[at] ^= 0x5A;
  std::ofstream(path("damaged.ts"), std::ios::binary) << bytes;
  for (const char* name : {"half.ts", "damaged.ts"}) {
    const auto v = run_cli({"video", path(name).string(), "--device", "cpu", "--no-progress"});
    EXPECT_EQ(v.status, 1) << name << ": " << v.err;
    EXPECT_NE(v.err.find(" in the stream (the file may be truncated or damaged)"),
              std::string::npos)
        << v.err;
    EXPECT_NE(v.err.find(" in the stream\n"), std::string::npos) << v.err;  // the closing line
  }
  const auto whole = run_cli({"video", ts.string(), "--device", "cpu", "--no-progress"});
  EXPECT_EQ(whole.status, 0) << whole.err;
}

// A JPEG whose coded data ends early is its file's error; one whose coded
// data is left over at the end is counted with a warning naming it, in the
// process and through the isolating decoder alike.
TEST_F(Reliability, DamagedJpegDataIsAnErrorOrAWarning) {
  std::string bytes = read_file(kRocket);
  const std::size_t scan = bytes.find("\xFF\xDA");
  const std::size_t end = bytes.rfind("\xFF\xD9");
  ASSERT_NE(scan, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  std::ofstream(path("cut.jpg"), std::ios::binary) << bytes.substr(0, (scan + end) / 2);
  std::ofstream(path("padded.jpg"), std::ios::binary)
      << bytes.substr(0, end) + std::string(64, '\0') + bytes.substr(end);
  for (const bool isolate : {false, true}) {
    std::vector<std::string> args = {"compute",
                                     path("padded.jpg").string(),
                                     path("cut.jpg").string(),
                                     kRocket.string(),
                                     "--format",
                                     "json",
                                     "--device",
                                     "cpu"};
    if (isolate) args.push_back("--isolate");
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 1) << r.err;
    const json rows = json::parse(r.out);
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_EQ(rows[0]["file"], path("padded.jpg").string());
    // The padding decodes to the same pixels; the row says what the decoder said.
    EXPECT_EQ(rows[0]["histograms"], rows[1]["histograms"]);
    const std::string warning = rows[0].value("warning", "");
    EXPECT_TRUE(warning.starts_with("Corrupt JPEG data: ")) << rows[0];
    EXPECT_NE(r.err.find(path("padded.jpg").string() + ": " + warning + " (the file may be"),
              std::string::npos)
        << r.err;
    EXPECT_FALSE(rows[1].contains("warning")) << rows[1]["file"];
    EXPECT_FALSE(rows[1].contains("notes")) << rows[1]["file"];
    EXPECT_NE(
        r.err.find("gpuhist: warning: " + path("padded.jpg").string() + ": Corrupt JPEG data: "),
        std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(" extraneous bytes before marker 0xd9 (the file may be damaged; its "
                         "pixels are used as decoded)\n"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("gpuhist: error: " + path("cut.jpg").string() +
                         ": corrupt or truncated image: Premature end of JPEG file\n"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
  }
}

// SIGINT, or Ctrl-\'s SIGQUIT, leaves no half-written output: neither the
// target nor a temporary file. A SIGHUP ignored from the start (nohup) stays
// ignored: the run goes on and writes its output whole.
TEST_F(Reliability, AnInterruptedRunLeavesNothingHalfWritten) {
  const fs::path clip = path("long.mp4");
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=640x360:rate=30 -t 20 -pix_fmt yuv420p "
                   "-preset ultrafast '" +
                   clip.string() + "'"));
  struct Interrupted {
    std::vector<std::string> extra;
    int signal;
    bool ignored;  // by the process gpuhist starts in, as nohup does
  };
  const std::vector<Interrupted> runs = {
      {{"--overlay", "-o", path("out.mp4").string()}, SIGINT, false},
      {{"-o", path("rows.jsonl").string()}, SIGQUIT, false},
      {{"-o", path("kept.jsonl").string()}, SIGHUP, true},
  };
  for (const Interrupted& run : runs) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::vector<std::string> args = {GPUHIST_BINARY, "video", clip.string(),
                                       "--device",     "cpu",   "--no-progress"};
      args.insert(args.end(), run.extra.begin(), run.extra.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::freopen("/dev/null", "w", stderr);
      const rlimit no_core{0, 0};
      ::setrlimit(RLIMIT_CORE, &no_core);  // SIGQUIT's core file would be left in the folder
      if (run.ignored) std::signal(run.signal, SIG_IGN);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    // Interrupted once its temporary file exists.
    bool started = false;
    for (int i = 0; i < 200 && !started; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      for (const auto& name : listing()) started = started || name.rfind(".", 0) == 0;
    }
    EXPECT_TRUE(started) << strsignal(run.signal);
    ::kill(pid, run.signal);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (run.ignored) {
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << strsignal(run.signal);
      EXPECT_EQ(listing(), (std::vector<std::string>{"kept.jsonl", "long.mp4"}));
      const std::string rows = test::file_text(path("kept.jsonl"));
      EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 600);
      continue;
    }
    ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it was interrupted";
    EXPECT_EQ(WTERMSIG(status), run.signal);
    EXPECT_EQ(listing(), std::vector<std::string>{"long.mp4"});
  }
}

// Rows to standard output (a file the shell opened) cut short by SIGINT end
// with a whole row: the buffer is written up to its last line's end.
TEST_F(Reliability, InterruptedRowsOnStandardOutputEndWithAWholeRow) {
  const fs::path clip = path("long.mp4");
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=320x180:rate=30 -t 60 -pix_fmt yuv420p "
                   "-preset ultrafast '" +
                   clip.string() + "'"));
  const fs::path rows = path("rows.csv");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<std::string> args = {GPUHIST_BINARY, "video",    clip.string(), "--device",
                                     "cpu",          "--format", "csv",         "--no-progress"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::freopen("/dev/null", "w", stderr);
    ::freopen(rows.c_str(), "w", stdout);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  // Interrupted once more than a buffer's worth (64 KiB) has been written.
  const auto written = [&] {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(rows, ec);
    return ec ? 0 : size;
  };
  for (int i = 0; i < 1000 && written() < 200000; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it was interrupted";
  const std::string text = test::file_text(rows);
  ASSERT_GT(text.size(), 65536U);
  EXPECT_EQ(text.back(), '\n');
  // Every row has the header's fields.
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  const auto fields = std::count(line.begin(), line.end(), ',');
  std::size_t count = 0;
  while (std::getline(lines, line)) {
    ASSERT_EQ(std::count(line.begin(), line.end(), ','), fields) << "row " << count;
    ++count;
  }
  EXPECT_GT(count, 0U);
}

// A target whose name is nearly as long as a name may be is written: its
// temporary file's name is cut short to fit (it was .NAME-XXXXXX.EXT, 13
// bytes more, which failed from 243 bytes on).
TEST_F(Reliability, AnOutputWithALongNameIsWritten) {
  for (const std::size_t length : {242, 243, 250, 255}) {
    const fs::path out = path(std::string(length - 5, 'A') + ".json");
    const auto r = run_cli(
        {"compute", kCoffee.string(), "--format", "json", "-o", out.string(), "--device", "cpu"});
    EXPECT_EQ(r.status, 0) << length << ": " << r.err;
    EXPECT_EQ(json::parse(read_file(out))["stats"]["luminance"]["count"], 600 * 400) << length;
  }
  EXPECT_EQ(listing().size(), 4U);  // no temporary file left
}

// --merge always ends with the total, of no files too; a single input that
// cannot be read leaves no output (an empty file would be no document).
TEST_F(Reliability, NothingReadIsAZeroTotalOrNoOutput) {
  std::ofstream(path("empty.png")).flush();
  const auto npy = run_cli({"compute", path("empty.png").string(), "--merge", "--format", "npy",
                            "--bins", "7", "-o", path("total.npy").string(), "--device", "cpu"});
  EXPECT_EQ(npy.status, 1);
  const std::string bytes = read_file(path("total.npy"));
  // The file's entry (zero: not read, in its place) and the zero total.
  EXPECT_NE(bytes.find("'shape': (2, 4, 7)"), std::string::npos) << bytes.substr(0, 80);
  ASSERT_EQ(bytes.size(), 128 + 2 * 4 * 7 * 8U);
  EXPECT_EQ(bytes.substr(128), std::string(2 * 4 * 7 * 8, '\0'));
  const auto j = run_cli(
      {"compute", path("empty.png").string(), "--merge", "--format", "json", "--device", "cpu"});
  EXPECT_EQ(j.status, 1);
  const json rows = json::parse(j.out);
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0]["file"], "(total)");
  EXPECT_EQ(rows[0]["files"], 0);
  EXPECT_EQ(rows[0]["stats"]["luminance"]["count"], 0);
  // Nothing counted: the other statistics are undefined, null (not 0, a value an image has).
  for (const char* field : {"min", "max", "mean", "stddev", "median", "p1", "p99", "shadows"}) {
    EXPECT_TRUE(rows[0]["stats"]["red"][field].is_null()) << field << ": " << rows[0]["stats"];
  }
  // Compared with a reference, nothing counted has no metrics: null, not an internal error.
  const auto compared = run_cli({"compute", path("empty.png").string(), "--merge", "--format",
                                 "json", "--compare", kCoffee.string(), "--device", "cpu"});
  EXPECT_EQ(compared.status, 1) << compared.err;
  EXPECT_TRUE(json::parse(compared.out)[0]["comparison"]["luminance"]["emd"].is_null())
      << compared.out;
  const auto table = run_cli({"compute", path("empty.png").string(), "--merge", "--device", "cpu"});
  EXPECT_EQ(table.status, 1);
  EXPECT_NE(table.out.find("\nred                  0           -           -"), std::string::npos)
      << table.out;
  // Two unreadable files, no --merge: an entry of zeros for each, of N bins.
  const auto none =
      run_cli({"compute", path("empty.png").string(), path("missing.png").string(), "--format",
               "npy", "--bins", "7", "-o", path("none.npy").string(), "--device", "cpu"});
  EXPECT_EQ(none.status, 1);
  const std::string zeros = read_file(path("none.npy"));
  EXPECT_NE(zeros.find("'shape': (2, 4, 7)"), std::string::npos);
  EXPECT_EQ(zeros.substr(128), std::string(2 * 4 * 7 * 8, '\0'));
  for (const char* format : {"npy", "json", "csv"}) {
    const fs::path out = path(std::string("one.") + format);
    const auto r = run_cli({"compute", path("empty.png").string(), "--format", format, "-o",
                            out.string(), "--device", "cpu"});
    EXPECT_EQ(r.status, 1) << format;
    EXPECT_FALSE(fs::exists(out)) << format;
  }
}

// A video given as an image is named as one, with the verb that reads it.
TEST_F(Reliability, AVideoGivenAsAnImageIsNamed) {
  const fs::path clip = path("clip.mp4");
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i testsrc2=size=32x24:rate=5 -frames:v 2 '" + clip.string() + "'"));
  const auto r = run_cli({"compute", clip.string(), "--device", "cpu"});
  EXPECT_EQ(r.status, 1);
  expect_one_line_error(r, clip.string() +
                               ": cannot read image: it is named as a video (gpuhist video reads "
                               "videos)");
  const auto v = run_cli({"video", clip.string(), "--compare", clip.string(), "--device", "cpu"});
  EXPECT_EQ(v.status, 1);
  expect_one_line_error(v, "it is named as a video");
}

// In a folder, a link to a file that is not there is reported; a link to a
// folder is not followed (a link back up would loop).
TEST_F(Reliability, LinksInAFolder) {
  fs::create_directories(path("set/sub"));
  copy(kCoffee, "set/a.png");
  fs::create_symlink("nowhere.png", path("set/dangling.png"));
  fs::create_symlink("..", path("set/sub/up"));
  fs::create_symlink("a.png", path("set/b.png"));
  const auto r = run_cli({"compute", path("set").string(), "--format", "json", "--device", "cpu"});
  EXPECT_EQ(r.status, 1) << r.err;
  expect_one_line_error(r, path("set/dangling.png").string() + ": no such file");
  const json rows = json::parse(r.out);
  ASSERT_EQ(rows.size(), 2U);  // a.png and the link b.png, once each
  EXPECT_EQ(rows[0]["file"], path("set/a.png").string());
  EXPECT_EQ(rows[1]["file"], path("set/b.png").string());
  // A link that leads back to itself and a pipe named as an image are said
  // as they are when named on their own, not passed over.
  fs::remove(path("set/dangling.png"));
  fs::create_symlink("loop.png", path("set/loop.png"));
  ASSERT_EQ(::mkfifo(path("set/pipe.png").c_str(), 0600), 0);
  const auto odd = run_cli({"compute", path("set").string(), "--format", "json", "--device", "cpu"});
  EXPECT_EQ(odd.status, 1) << odd.err;
  EXPECT_EQ(odd.err, "gpuhist: error: " + path("set/loop.png").string() +
                         ": too many levels of symbolic links\ngpuhist: error: " +
                         path("set/pipe.png").string() + ": not a regular file\n");
  EXPECT_EQ(json::parse(odd.out).size(), 2U);
}

TEST_F(Reliability, TheCommandLinesRoughEdges) {
  // bench's report that cannot be written: the file and the cause, status 4.
  const auto bench = run_cli({"bench", "--quick", "-o", path("no/such/dir/r.txt").string()});
  EXPECT_EQ(bench.status, 4);
  expect_one_line_error(
      bench, path("no/such/dir/r.txt").string() + ": cannot write: No such file or directory");
  // A threshold outside the samples' range.
  const auto above = run_cli({"threshold", kCoffee.string(), "-o", path("t.png").string(),
                              "--method", "300", "--device", "cpu"});
  EXPECT_EQ(above.status, 2);
  expect_one_line_error(above, "--method 300 is above 255");
  EXPECT_FALSE(fs::exists(path("t.png")));
  // --size without a written video.
  const fs::path clip = path("c.mkv");
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=32x24:rate=10 -frames:v 3 -c:v ffv1 '" +
                           clip.string() + "'"));
  const auto size = run_cli({"video", clip.string(), "--size", "64x48", "--device", "cpu"});
  EXPECT_EQ(size.status, 2);
  expect_one_line_error(size, "--size sets the size of a written video");
  // A reference with nothing to match.
  for (const std::vector<std::string> args :
       {std::vector<std::string>{"video", clip.string(), "--reference", kCoffee.string()},
        {"video", clip.string(), "--overlay", "-o", path("r.mkv").string(), "--reference",
         kCoffee.string()}}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.status, 2) << r.err;
    expect_one_line_error(r, "--reference goes with --adjust match");
  }
  EXPECT_FALSE(fs::exists(path("r.mkv")));
  // Negative and zero limits.
  for (const char* value : {"-1", "0", "-99999999999999999999"}) {
    const auto r = run_cli({"compute", kCoffee.string(), "--max-pixels", value, "--device", "cpu"});
    EXPECT_EQ(r.status, 2) << value;
    expect_one_line_error(r, "is not a whole number from 1 up");
  }
  // Past 2^64 - 1, which would wrap.
  for (const char* value : {"18446744073709551616", "99999999999999999999999"}) {
    const auto r = run_cli({"compute", kCoffee.string(), "--max-pixels", value, "--device", "cpu"});
    EXPECT_EQ(r.status, 2) << value;
    expect_one_line_error(r, "is too large (2^64 - 1 at most)");
  }
  const auto most = run_cli(
      {"compute", kCoffee.string(), "--max-pixels", "18446744073709551615", "--device", "cpu"});
  EXPECT_EQ(most.status, 0) << most.err;
  // A 1x1 video gets a 2x2 overlay.
  const fs::path dot = path("dot.nut");
  ASSERT_TRUE(
      test::ffmpeg("-f lavfi -i color=c=red:size=1x1:rate=10,format=rgb24 -frames:v 3 "
                   "-c:v rawvideo -pix_fmt rgb24 '" +
                   dot.string() + "'"));
  const auto overlay = run_cli({"video", dot.string(), "--overlay", "-o", path("dot.mp4").string(),
                                "--device", "cpu", "--no-progress"});
  EXPECT_EQ(overlay.status, 0) << overlay.err;
  EXPECT_NE(overlay.err.find("3 frames written"), std::string::npos) << overlay.err;
  // A container that does not take the video's codec.
  const auto webm = run_cli(
      {"video", clip.string(), "--overlay", "-o", path("x.webm").string(), "--device", "cpu"});
  EXPECT_EQ(webm.status, 2);
  expect_one_line_error(webm, "the '.webm' container does not hold");
  EXPECT_FALSE(fs::exists(path("x.webm")));
  // Times print in their shortest form.
  const fs::path thirty = path("thirty.mkv");
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc=size=16x16:rate=30 -frames:v 43 -c:v ffv1 '" +
                           thirty.string() + "'"));
  const auto rows = run_cli({"video", thirty.string(), "--device", "cpu", "--no-progress"});
  EXPECT_NE(rows.out.find("\"frame\":42,\"time\":1.4,"), std::string::npos);
}

// "Asked for the GPU and there is none" is one status, 3, whichever option asked.
TEST_F(Reliability, NoVulkanDeviceIsStatusThreeForEveryGpuRequest) {
  ::setenv("VK_ICD_FILENAMES", "/nonexistent.json", 1);
  ::setenv("VK_DRIVER_FILES", "/nonexistent.json", 1);
  const auto strategy = run_cli({"compute", kCoffee.string(), "--strategy", "gpu"});
  const auto apply =
      run_cli({"equalize", kCoffee.string(), "-o", path("e.png").string(), "--apply", "gpu"});
  const auto index = run_cli({"compute", kCoffee.string(), "--device", "0"});
  const auto name = run_cli({"compute", kCoffee.string(), "--device", "nvidia"});
  ::unsetenv("VK_ICD_FILENAMES");
  ::unsetenv("VK_DRIVER_FILES");
  // A device named by index or name when there is none at all: the machine's lack, not a typo.
  EXPECT_EQ(index.status, 3) << index.err;
  EXPECT_EQ(name.status, 3) << name.err;
  expect_one_line_error(name, "no Vulkan device matches 'nvidia'");
  EXPECT_EQ(strategy.status, 3) << strategy.err;
  EXPECT_EQ(apply.status, 3) << apply.err;
  expect_one_line_error(apply, "--apply gpu needs a Vulkan device, and none was found");
  EXPECT_FALSE(fs::exists(path("e.png")));
}

}  // namespace
}  // namespace gpuhist
