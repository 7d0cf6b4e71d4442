// The image-file module (src/io/image_library.hpp): OpenImageIO is loaded the
// first time an image file is read, and not by what needs no image file; the
// module's buffers come from the loading program's store; a missing or
// foreign module is one clear error.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gpuhist/error.hpp"
#include "gpuhist/gpuhist.hpp"
#include "gpuhist/image_file.hpp"
#include "gpuhist/pixel_buffer.hpp"
#include "io/image_library.hpp"
#include "io/plain_jpeg.hpp"
#include "support/run_cli.hpp"

namespace gpuhist {
namespace {

const std::filesystem::path kCoffee = std::filesystem::path(GPUHIST_SOURCE_DIR) / "data/coffee.png";
const std::filesystem::path kRocket = std::filesystem::path(GPUHIST_SOURCE_DIR) / "data/rocket.jpg";

bool image_library_loaded() {
  void* handle = ::dlopen("libOpenImageIO.so.2.4", RTLD_LAZY | RTLD_NOLOAD);
  if (handle != nullptr) ::dlclose(handle);
  return handle != nullptr;
}

// Runs gpuhist with the dynamic loader logging the files it loads (into
// files: gpuhist silences stderr while it decodes); true when OpenImageIO
// was among them.
bool cli_loads_image_library(const std::vector<std::string>& args, int& status) {
  const std::filesystem::path dir = test::temp_dir();
  ::setenv("LD_DEBUG", "files", 1);
  ::setenv("LD_DEBUG_OUTPUT", (dir / "ld").c_str(), 1);
  const test::CliResult r = test::run_cli(args);
  ::unsetenv("LD_DEBUG");
  ::unsetenv("LD_DEBUG_OUTPUT");
  status = r.status;
  std::string log;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    log.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::filesystem::remove_all(dir);
  // The log is there (so an absent library is a finding, not a lost log).
  EXPECT_NE(log.find("file=libc.so.6"), std::string::npos) << "the loader logged nothing";
  return log.find("file=libOpenImageIO.so") != std::string::npos;
}

// Runs first (the order of the file): nothing has read an image yet.
TEST(ImageModule, LoadedOnTheFirstImageOnly) {
  // This program does not link OpenImageIO; a Context and a histogram need no image file.
  ASSERT_FALSE(image_library_loaded());
  Image image = Image::allocate(64, 64, {ChannelLayout::RGB, SampleType::U8});
  std::fill(image.storage.data(), image.storage.data() + image.storage.size(), std::byte{7});
  const Histogram h = Context::open("cpu").compute(image.view());
  EXPECT_EQ(h.counts(Channel::Red)[7], 64U * 64U);
  EXPECT_FALSE(image_library_loaded());

  // A JPEG libjpeg-turbo reads whole needs no module.
  const Image rocket = load_image(kRocket);
  EXPECT_EQ(rocket.width, 640U);
  EXPECT_EQ(rocket.height, 427U);
  EXPECT_FALSE(image_library_loaded());

  const Image coffee = load_image(kCoffee);
  EXPECT_EQ(coffee.width, 600U);
  EXPECT_EQ(coffee.height, 400U);
  EXPECT_TRUE(image_library_loaded());
}

TEST(ImageModule, ErrorsCrossTheModuleWithTheirKind) {
  try {
    (void)load_image("/nonexistent/image.png");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
  }
}

TEST(ImageModule, BuffersComeFromTheLoadersStore) {
  if (!PixelBuffer::keeps_freed()) GTEST_SKIP() << "sanitizer builds keep no freed buffer";
  const std::byte* first = nullptr;
  {
    const Image a = load_image(kCoffee);  // 720,000 bytes: kept when freed
    first = a.storage.data();
  }
  // Freed here, into this program's store; the module's next image takes it.
  const std::byte* second = nullptr;
  {
    const Image b = load_image(kCoffee);
    EXPECT_EQ(b.storage.data(), first);
    second = b.storage.data();
  }
  // And a buffer the module allocated is this program's to take.
  const PixelBuffer mine(std::size_t{600} * 400 * 3);
  EXPECT_EQ(mine.data(), second);
}

TEST(ImageModule, CommandsThatReadNoImageDoNotLoadIt) {
  int status = -1;
  EXPECT_FALSE(cli_loads_image_library({"--version"}, status));
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(cli_loads_image_library({"devices"}, status));
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(cli_loads_image_library({"compute", kCoffee.string()}, status));
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(cli_loads_image_library({"compute", kRocket.string(), "--device", "cpu"}, status));
  EXPECT_EQ(status, 0);
  // A folder of JPEGs, searched by their names.
  const std::filesystem::path dir = test::temp_dir();
  std::filesystem::create_directories(dir / "sub");
  std::filesystem::copy_file(kRocket, dir / "a.jpg");
  std::filesystem::copy_file(kRocket, dir / "sub" / "B.JPEG");
  EXPECT_FALSE(cli_loads_image_library({"compute", dir.string(), "--device", "cpu"}, status));
  EXPECT_EQ(status, 0);
  std::filesystem::remove_all(dir);
}

// The names searched for in a folder without the module are those the module
// gives JPEG's format.
TEST(ImageModule, JpegNamesAreTheModulesJpegNames) {
  const io::ImageLibrary& module = io::image_library(ErrorKind::Input);
  for (const char* name : {"a.jpg", "a.JPG", "a.jpeg", "a.JpEg", "dir.d/b.jpg", "a.jpe", "a.jfif",
                           "a.png", "a.jpg.txt", "jpg", ".jpg", "a.", "a"}) {
    for (const FormatSet formats : {FormatSet::Common, FormatSet::All}) {
      EXPECT_EQ(has_image_extension(name, formats), module.has_image_extension(name, formats))
          << name;
      if (io::jpeg_extension(name)) EXPECT_TRUE(module.has_image_extension(name, formats)) << name;
    }
  }
}

// What load_image gives for a JPEG it reads without the module, and the error
// it throws where the module reads it, are what the module gives: pixels,
// framing, warning and every error's words.
TEST(ImageModule, JpegsReadWithoutTheModuleAreReadAsTheModuleReadsThem) {
  namespace fs = std::filesystem;
  const fs::path source(GPUHIST_SOURCE_DIR);
  const fs::path dir = test::temp_dir();
  std::vector<fs::path> files = {kRocket};
  for (const char* seed :
       {"exif-icc.jpg", "photo.jpg", "odd-grey-17x11.jpg", "odd-yuv422-17x11.jpg",
        "odd-yuv420-17x11.jpg", "jpeg-iptc-overflow-1.jpg"}) {
    files.push_back(source / "tests/fuzz/corpus/image" / seed);
  }
  const std::string whole = test::file_text(kRocket);
  const auto write = [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    files.push_back(dir / name);
  };
  // Coded data left over before the end (a warning), cut short, damaged, a JPEG
  // named as a PNG, only a signature.
  const std::size_t end = whole.rfind("\xFF\xD9");
  ASSERT_NE(end, std::string::npos);
  write("padded.jpg", whole.substr(0, end) + std::string(64, '\0') + whole.substr(end));
  write("cut.jpg", whole.substr(0, whole.size() / 2));
  std::string damaged = whole;
  for (std::size_t i = whole.size() / 3; i < whole.size() / 3 + 200; ++i) damaged[i] = '\x55';
  write("damaged.jpg", damaged);
  write("named.png", whole);
  write("signature.jpg", "\xFF\xD8\xFF");
  // A progressive JPEG.
  ASSERT_EQ(std::system(("oiiotool '" + kRocket.string() + "' --attrib jpeg:progressive 1 -o '" +
                         (dir / "progressive.jpg").string() + "'")
                            .c_str()),
            0);
  ASSERT_NE(test::file_text(dir / "progressive.jpg").find("\xFF\xC2"), std::string::npos);
  files.push_back(dir / "progressive.jpg");
  const io::ImageLibrary& module = io::image_library(ErrorKind::Input);
  for (const std::uint64_t limit : {kDefaultMaxPixels, std::uint64_t{640 * 427 - 1}}) {
    LoadOptions options;
    options.max_pixels = limit;
    for (const fs::path& file : files) {
      const std::string label = file.filename().string() + " at " + std::to_string(limit);
      std::string read_error, module_error;
      Image read, by_module;
      try {
        read = load_image(file, options);
      } catch (const Error& e) {
        read_error = e.what();
      }
      try {
        by_module = module.load_image(file, options);
      } catch (const Error& e) {
        module_error = e.what();
      }
      EXPECT_EQ(read_error, module_error) << label;
      // (What each file is: the comparison covers reading, warnings and errors.)
      const std::string name = file.filename().string();
      const bool whole_rocket = name == "rocket.jpg" || name == "padded.jpg" ||
                                name == "damaged.jpg" || name == "named.png" ||
                                name == "progressive.jpg";
      const bool refused = name == "cut.jpg" || name == "signature.jpg" ||
                           (limit != kDefaultMaxPixels && whole_rocket);
      EXPECT_EQ(module_error.empty(), !refused) << label << ": " << module_error;
      if (!module_error.empty()) continue;
      const bool warned =
          name == "padded.jpg" || name == "damaged.jpg" || name == "jpeg-iptc-overflow-1.jpg";
      EXPECT_EQ(by_module.warning.empty(), !warned) << label;
      // Read without the module indeed (not the module compared with itself).
      EXPECT_TRUE(io::read_plain_jpeg(file, options).has_value()) << label;
      ASSERT_EQ(read.width, by_module.width) << label;
      ASSERT_EQ(read.height, by_module.height) << label;
      ASSERT_EQ(read.format, by_module.format) << label;
      EXPECT_EQ(read.codec, by_module.codec) << label;
      EXPECT_EQ(read.alpha, by_module.alpha) << label;
      EXPECT_EQ(read.more_pages, by_module.more_pages) << label;
      EXPECT_EQ(read.warning, by_module.warning) << label;
      EXPECT_EQ(read.orientation, by_module.orientation) << label;
      EXPECT_EQ(read.notes, by_module.notes) << label;
      const std::size_t row = std::size_t{read.width} * pixel_bytes(read.format);
      for (std::uint32_t y = 0; y < read.height && y < by_module.height; ++y) {
        ASSERT_EQ(std::memcmp(read.storage.data() + y * read.stride,
                              by_module.storage.data() + y * by_module.stride, row),
                  0)
            << label << " row " << y;
      }
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(ImageModule, AVideoRunDoesNotLoadIt) {
  const std::filesystem::path dir = test::temp_dir();
  const std::string clip = (dir / "clip.mp4").string();
  ASSERT_TRUE(test::ffmpeg("-f lavfi -i testsrc2=size=64x48:rate=10 -t 0.5 -pix_fmt yuv420p '" +
                           clip + "'"));
  int status = -1;
  EXPECT_FALSE(cli_loads_image_library({"video", clip, "--device", "cpu", "-o", "/dev/null"}, status));
  EXPECT_EQ(status, 0);
  std::filesystem::remove_all(dir);
}

// A module found by its folder (beside the program, one or two folders up)
// is loaded only where it and its folder are this user's or root's and no
// one else may change them: a program in /tmp/app/ does not run what
// another user left in /tmp/.
TEST(ImageModule, AModuleOthersMayChangeIsPassedOver) {
  namespace fs = std::filesystem;
  const fs::path dir = test::temp_dir();
  fs::create_directories(dir / "a" / "b");
  const fs::path program = dir / "a" / "b" / "gpuhist";
  fs::copy_file(GPUHIST_BINARY, program);
  // The real module two folders up; a broken one, which would fail the run
  // if it were loaded, one folder up (looked at first).
  fs::copy_file(fs::path(GPUHIST_BINARY).parent_path() / "libgpuhist-images.so",
                dir / "libgpuhist-images.so");
  const fs::path planted = dir / "a" / "libgpuhist-images.so";
  std::ofstream(planted) << "not a library\n";
  const auto run = [&] {
    const std::string command = "'" + program.string() + "' compute '" + kCoffee.string() +
                                "' --device cpu --format csv > '" + (dir / "out").string() +
                                "' 2> '" + (dir / "err").string() + "'";
    const int status = std::system(command.c_str());
    std::ifstream err(dir / "err");
    return std::pair{WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                     std::string(std::istreambuf_iterator<char>(err), {})};
  };
  // Others may write to it: passed over; the real one counts.
  fs::permissions(planted, fs::perms(0666));
  auto [status, err] = run();
  EXPECT_EQ(status, 0) << err;
  // Only ours: loaded, and its fault is the run's.
  fs::permissions(planted, fs::perms(0644));
  std::tie(status, err) = run();
  EXPECT_EQ(status, 1) << err;
  EXPECT_NE(err.find("cannot load the image-file module"), std::string::npos) << err;
  // In a folder others may write to (not sticky): passed over.
  fs::permissions(dir / "a", fs::perms(0777));
  std::tie(status, err) = run();
  EXPECT_EQ(status, 0) << err;
  fs::permissions(dir / "a", fs::perms(0755));
  // Another user's (where this test may give it to one).
  if (::geteuid() == 0 && ::chown(planted.c_str(), 65534, 65534) == 0) {
    std::tie(status, err) = run();
    EXPECT_EQ(status, 0) << err;
  }
  // GPUHIST_IMAGES_MODULE's is the user's choice, whoever owns it.
  fs::permissions(planted, fs::perms(0666));
  ::setenv("GPUHIST_IMAGES_MODULE", planted.c_str(), 1);
  std::tie(status, err) = run();
  ::unsetenv("GPUHIST_IMAGES_MODULE");
  EXPECT_EQ(status, 1) << err;
  fs::remove_all(dir);
}

TEST(ImageModule, AMissingModuleIsOneLineWithTheCause) {
  const std::filesystem::path dir = test::temp_dir();
  ::setenv("GPUHIST_IMAGES_MODULE", (dir / "libgpuhist-images.so").c_str(), 1);
  test::CliResult r = test::run_cli({"compute", kCoffee.string()});
  EXPECT_EQ(r.status, 1);
  test::expect_one_line_error(r, "cannot find the image-file module");

  // Not a shared library at all.
  std::ofstream(dir / "libgpuhist-images.so") << "not a library\n";
  r = test::run_cli({"compute", kCoffee.string()});
  EXPECT_EQ(r.status, 1);
  test::expect_one_line_error(r, "cannot load the image-file module");

  // Writing needs it too: the output status, and no file left behind.
  r = test::run_cli({"draw", "--device", "cpu", (dir / "x.png").string(), "-o",
                     (dir / "out.png").string()});
  ::unsetenv("GPUHIST_IMAGES_MODULE");
  EXPECT_NE(r.status, 0);
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gpuhist
