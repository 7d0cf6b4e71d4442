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
#include "io/jpeg_segments.hpp"
#include "io/kept_metadata.hpp"
#include "io/plain_jpeg.hpp"
#include "io/plain_png.hpp"
#include "support/png_builder.hpp"
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

// A file read by load_image and by the module itself: the image or error of each.
struct Read {
  Image image, by_module;
  std::string error, module_error;
};

// Reads `file` both ways and expects the same: the same error's words, or
// the same pixels, framing, warning, orientation and notes.
Read read_both(const std::filesystem::path& file, const LoadOptions& options) {
  const std::string label = file.filename().string() + " at " + std::to_string(options.max_pixels) +
                            (options.alpha ? " with alpha" : "");
  Read r;
  try {
    r.image = load_image(file, options);
  } catch (const Error& e) {
    r.error = e.what();
  }
  try {
    r.by_module = io::image_library(ErrorKind::Input).load_image(file, options);
  } catch (const Error& e) {
    r.module_error = e.what();
  }
  EXPECT_EQ(r.error, r.module_error) << label;
  if (!r.error.empty() || !r.module_error.empty()) return r;
  const Image& read = r.image;
  const Image& by_module = r.by_module;
  EXPECT_EQ(read.width, by_module.width) << label;
  EXPECT_EQ(read.height, by_module.height) << label;
  EXPECT_EQ(read.format, by_module.format) << label;
  EXPECT_EQ(read.codec, by_module.codec) << label;
  EXPECT_EQ(read.alpha, by_module.alpha) << label;
  EXPECT_EQ(read.more_pages, by_module.more_pages) << label;
  EXPECT_EQ(read.warning, by_module.warning) << label;
  EXPECT_EQ(read.orientation, by_module.orientation) << label;
  EXPECT_EQ(read.notes, by_module.notes) << label;
  if (read.width != by_module.width || read.format != by_module.format) return r;
  const std::size_t row = std::size_t{read.width} * pixel_bytes(read.format);
  for (std::uint32_t y = 0; y < read.height && y < by_module.height; ++y) {
    if (std::memcmp(read.storage.data() + y * read.stride,
                    by_module.storage.data() + y * by_module.stride, row) != 0) {
      ADD_FAILURE() << label << ": row " << y << " differs";
      break;
    }
  }
  return r;
}

// A grey (P5) or RGB (P6, by the name's "rgb") PPM of `width` x `height`,
// which only the module reads.
std::filesystem::path write_ppm(const std::filesystem::path& path, int width, int height) {
  const bool rgb = path.filename().string().find("rgb") != std::string::npos;
  std::ofstream out(path, std::ios::binary);
  out << (rgb ? "P6\n" : "P5\n") << width << ' ' << height << "\n255\n";
  for (int i = 0; i < width * height * (rgb ? 3 : 1); ++i) out.put(static_cast<char>(i * 7));
  return path;
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

  // A JPEG libjpeg-turbo reads whole, and a PNG libpng does, need no module.
  const Image rocket = load_image(kRocket);
  EXPECT_EQ(rocket.width, 640U);
  EXPECT_EQ(rocket.height, 427U);
  const Image coffee = load_image(kCoffee);
  EXPECT_EQ(coffee.width, 600U);
  EXPECT_EQ(coffee.height, 400U);
  EXPECT_FALSE(image_library_loaded());

  const std::filesystem::path dir = test::temp_dir();
  const Image ppm = load_image(write_ppm(dir / "grey.ppm", 60, 40));
  EXPECT_EQ(ppm.width, 60U);
  EXPECT_TRUE(image_library_loaded());
  std::filesystem::remove_all(dir);
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
  const std::filesystem::path dir = test::temp_dir();
  const std::filesystem::path ppm = write_ppm(dir / "rgb.ppm", 600, 400);  // read by the module
  const std::byte* first = nullptr;
  {
    const Image a = load_image(ppm);  // 720,000 bytes: kept when freed
    first = a.storage.data();
  }
  std::filesystem::remove_all(dir);
  // Freed here, into this program's store; the module's next image takes it.
  const std::byte* second = nullptr;
  {
    const Image b = io::image_library(ErrorKind::Input).load_image(kCoffee, {});
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
  const std::filesystem::path dir = test::temp_dir();
  EXPECT_TRUE(cli_loads_image_library(
      {"compute", write_ppm(dir / "grey.ppm", 6, 4).string(), "--device", "cpu"}, status));
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(cli_loads_image_library({"compute", kRocket.string(), "--device", "cpu"}, status));
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(cli_loads_image_library({"compute", kCoffee.string(), "--device", "cpu"}, status));
  EXPECT_EQ(status, 0);
  // A folder of JPEGs and PNGs, searched by their names.
  std::filesystem::create_directories(dir / "set" / "sub");
  std::filesystem::copy_file(kRocket, dir / "set" / "a.jpg");
  std::filesystem::copy_file(kRocket, dir / "set" / "sub" / "B.JPEG");
  std::filesystem::copy_file(kCoffee, dir / "set" / "sub" / "c.PNG");
  EXPECT_FALSE(
      cli_loads_image_library({"compute", (dir / "set").string(), "--device", "cpu"}, status));
  EXPECT_EQ(status, 0);
  std::filesystem::remove_all(dir);
}

// The names searched for in a folder without the module are those the module
// gives JPEG's format.
TEST(ImageModule, JpegAndPngNamesAreTheModulesNames) {
  const io::ImageLibrary& module = io::image_library(ErrorKind::Input);
  for (const char* name :
       {"a.jpg", "a.JPG", "a.jpeg", "a.JpEg",    "dir.d/b.jpg", "a.jpe",     "a.jfif",
        "a.png", "a.PNG", "a.pNg",  "dir.png/c", "a.apng",      "a.png.bak", "a.jpg.txt",
        "jpg",   ".jpg",  "png",    ".png",      "a.",          "a"}) {
    for (const FormatSet formats : {FormatSet::Common, FormatSet::All}) {
      EXPECT_EQ(has_image_extension(name, formats), module.has_image_extension(name, formats))
          << name;
      if (io::jpeg_extension(name) || io::png_extension(name)) {
        EXPECT_TRUE(module.has_image_extension(name, formats)) << name;
      }
    }
    EXPECT_EQ(image_write_refusal(name), module.image_write_refusal(name)) << name;
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
  for (const std::uint64_t limit : {kDefaultMaxPixels, std::uint64_t{640 * 427 - 1}}) {
    LoadOptions options;
    options.max_pixels = limit;
    for (const fs::path& file : files) {
      const std::string label = file.filename().string() + " at " + std::to_string(limit);
      const Read read = read_both(file, options);
      // (What each file is: the comparison covers reading, warnings and errors.)
      const std::string name = file.filename().string();
      const bool whole_rocket = name == "rocket.jpg" || name == "padded.jpg" ||
                                name == "damaged.jpg" || name == "named.png" ||
                                name == "progressive.jpg";
      const bool refused = name == "cut.jpg" || name == "signature.jpg" ||
                           (limit != kDefaultMaxPixels && whole_rocket);
      EXPECT_EQ(read.module_error.empty(), !refused) << label << ": " << read.module_error;
      if (!read.module_error.empty()) continue;
      const bool warned =
          name == "padded.jpg" || name == "damaged.jpg" || name == "jpeg-iptc-overflow-1.jpg";
      EXPECT_EQ(read.by_module.warning.empty(), !warned) << label;
      // Read without the module indeed (not the module compared with itself).
      EXPECT_TRUE(io::read_plain_jpeg(file, options).has_value()) << label;
    }
  }
  std::filesystem::remove_all(dir);
}

// A level of `bits` for sample `c` of pixel (x, y): scattered, every level met.
std::uint32_t scattered(std::uint32_t x, std::uint32_t y, int c, int bits) {
  std::uint32_t h = x * 73856093U ^ y * 19349663U ^ static_cast<std::uint32_t>(c) * 83492791U;
  h ^= h >> 13;
  h *= 0x5BD1E995U;
  h ^= h >> 15;
  return h & ((std::uint32_t{1} << bits) - 1);
}

// Two bytes, big-endian, as PNG's chunks hold numbers.
std::string big16(std::uint32_t v) {
  return {static_cast<char>((v >> 8) & 0xFF), static_cast<char>(v & 0xFF)};
}
std::string big32(std::uint32_t v) { return big16(v >> 16) + big16(v & 0xFFFF); }

// What load_image gives for a PNG it reads without the module, and the error
// it throws where the module reads it, are what the module gives: every
// colour type and bit depth, interlaced or not, with and without tRNS, at two
// limits and with alpha read or not; the chunks that leave a file to the
// module (an Exif orientation, an animation, an offset, a private chunk) do.
TEST(ImageModule, PngsReadWithoutTheModuleAreReadAsTheModuleReadsThem) {
  namespace fs = std::filesystem;
  const fs::path dir = test::temp_dir();
  struct Case {
    fs::path file;
    bool plain;  // read without the module where the module reads it
  };
  std::vector<Case> cases;
  const auto write = [&](const std::string& name, const std::string& bytes, bool plain) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    cases.push_back({dir / name, plain});
  };
  const auto pixels = [](int bits) {
    return [bits](std::uint32_t x, std::uint32_t y, int c) { return scattered(x, y, c, bits); };
  };
  // Every colour type and depth PNG has, 13x7 (Adam7's passes cut short) and 1x1
  // (six passes empty), with tRNS where the type takes it.
  for (const bool interlaced : {false, true}) {
    for (const auto [type, depths] :
         {std::pair{0, std::vector{1, 2, 4, 8, 16}}, std::pair{2, std::vector{8, 16}},
          std::pair{3, std::vector{1, 2, 4, 8}}, std::pair{4, std::vector{8, 16}},
          std::pair{6, std::vector{8, 16}}}) {
      for (const int depth : depths) {
        for (const bool transparency : {false, true}) {
          if (transparency && (type == 4 || type == 6)) continue;
          test::PngSpec spec;
          spec.width = 13;
          spec.height = 7;
          spec.bit_depth = depth;
          spec.colour_type = type;
          spec.interlaced = interlaced;
          if (type == 3) {
            for (int i = 0; i < (1 << depth); ++i) {
              for (int c = 0; c < 3; ++c) spec.palette += static_cast<char>(scattered(i, 99, c, 8));
            }
          }
          if (transparency) {
            // Pixel (0, 0)'s level or index transparent (and palette entries' alpha).
            for (int c = 0; c < (type == 2 ? 3 : 1); ++c) {
              spec.transparency += type == 3 ? std::string(1, '\x40') + std::string(1, '\0')
                                             : big16(scattered(0, 0, c, depth));
            }
          }
          const std::string name = "t" + std::to_string(type) + "-" + std::to_string(depth) +
                                   (transparency ? "-trns" : "") + (interlaced ? "-adam7" : "");
          write(name + ".png", test::build_png(spec, pixels(depth)), true);
          spec.width = 1;
          spec.height = 1;
          write(name + "-1x1.png", test::build_png(spec, pixels(depth)), true);
        }
      }
    }
  }
  test::PngSpec rgb;
  rgb.width = 13;
  rgb.height = 7;
  const auto with = [&](std::vector<std::string> before, std::vector<std::string> after = {}) {
    test::PngSpec spec = rgb;
    spec.before_data = std::move(before);
    spec.after_data = std::move(after);
    return test::build_png(spec, pixels(8));
  };
  // Chunks of colour, density, time and text: read here.
  write("described.png",
        with({test::png_chunk("gAMA", big32(45455)), test::png_chunk("cHRM", std::string(32, '\1')),
              test::png_chunk("sBIT", "\5\6\5"),
              test::png_chunk("pHYs", big32(2835) + big32(2835) + "\1"),
              test::png_chunk("tIME", big16(2026) + "\14\7\22\0\0")},
             {test::png_chunk("tEXt", std::string("Comment\0a photo", 15)),
              test::png_chunk("iTXt", std::string("Title\0\0\0\0\0sky", 13))}),
        true);
  write("srgb.png", with({test::png_chunk("sRGB", std::string(1, '\0'))}), true);
  write("icc-unchecked.png", with({test::png_chunk("iCCP", std::string("p\0\0x", 4))}), true);
  // An ancillary chunk whose CRC does not match: libpng passes over it.
  std::string bad_text = test::png_chunk("tEXt", std::string("Comment\0x", 9));
  bad_text.back() = static_cast<char>(bad_text.back() ^ 1);
  write("bad-text-crc.png", with({bad_text}), true);
  // Exif orientation (6: turned) in an eXIf chunk, in ImageMagick's text, in XMP.
  const std::string exif = std::string("MM\0*", 4) + big32(8) + big16(1) + big16(0x112) + big16(3) +
                           big32(1) + big16(6) + big16(0) + big32(0);
  write("exif.png", with({test::png_chunk("eXIf", exif)}), false);
  std::string hex;
  for (const char c : std::string("Exif\0\0", 6) + exif) {
    static constexpr char kDigits[] = "0123456789abcdef";
    hex += kDigits[static_cast<unsigned char>(c) >> 4];
    hex += kDigits[static_cast<unsigned char>(c) & 15];
  }
  write("exif-text.png",
        with({test::png_chunk("tEXt", std::string("Raw profile type exif\0", 22) + "\nexif\n" +
                                          std::to_string(exif.size() + 6) + "\n" + hex + "\n")}),
        false);
  write("xmp.png",
        with({test::png_chunk("iTXt",
                              std::string("XML:com.adobe.xmp\0\0\0\0\0", 22) +
                                  "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF "
                                  "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
                                  "<rdf:Description xmlns:tiff=\"http://ns.adobe.com/tiff/1.0/\" "
                                  "tiff:Orientation=\"6\"/></rdf:RDF></x:xmpmeta>")}),
        false);
  write("orientation-text.png",
        with({test::png_chunk("tEXt", std::string("orientation\0006", 13))}), false);
  // (The key in a compressed text chunk; after the pixels, where the module's reader does
  // not look, too.)
  const std::string ztxt =
      test::png_chunk("zTXt", std::string("Orientation\0\0", 13) + test::zlib_stored("6"));
  write("orientation-ztxt.png", with({ztxt}), false);
  write("orientation-after.png", with({}, {ztxt}), false);
  // Offsets (OpenImageIO writes one into every PNG): a small one is read here,
  // a negative or a vast one (past the module's coordinates) is the module's.
  write("offset.png", with({test::png_chunk("oFFs", big32(3) + big32(4) + std::string(1, '\0'))}),
        true);
  write("offset-microns.png",
        with({test::png_chunk("oFFs", big32(3000) + big32(0) + std::string(1, '\1'))}), true);
  write("offset-negative.png",
        with({test::png_chunk("oFFs", big32(0xFFFFFFFDU) + big32(4) + std::string(1, '\0'))}),
        false);
  write("offset-vast.png",
        with({test::png_chunk("oFFs", big32(0x7FFFFFF0U) + big32(4) + std::string(1, '\0'))}),
        false);
  // An animation's control chunk (two frames), a private chunk.
  write("animated.png", with({test::png_chunk("acTL", big32(2) + big32(0))}), false);
  write("private.png", with({test::png_chunk("prVt", "x")}), false);
  // Damaged, cut short, claiming more than it holds, misnamed, a bare signature.
  const std::string coffee = test::file_text(kCoffee);
  std::string bad_idat = with({});
  bad_idat[bad_idat.size() - 13] = static_cast<char>(bad_idat[bad_idat.size() - 13] ^ 1);
  write("bad-idat-crc.png", bad_idat, false);
  write("cut.png", coffee.substr(0, coffee.size() / 2), false);
  write("no-iend.png", coffee.substr(0, coffee.size() - 12), false);
  write("trailing.png", coffee + "after the end", true);
  write("huge.png",
        "\x89PNG\r\n\x1A\n" +
            test::png_chunk("IHDR", big32(40000) + big32(40000) + std::string("\10\2\0\0\0", 5)) +
            test::png_chunk("IDAT", test::zlib_stored("x")) + test::png_chunk("IEND", ""),
        false);
  write("named.jpg", coffee, true);
  write("signature.png", "\x89PNG\r\n\x1A\n", false);
  cases.push_back({kCoffee, true});
  for (const char* seed :
       {"grey.png", "icc-text.png", "rgb8.png", "rgba16.png", "png-chunk-length-1.png",
        "png-iccp-empty-chunk.png", "png-idat-crc-adjust-two-lines.png"}) {
    cases.push_back({fs::path(GPUHIST_SOURCE_DIR) / "tests/fuzz/corpus/image" / seed, true});
  }
  std::size_t plain_reads = 0;
  for (const std::uint64_t limit : {kDefaultMaxPixels, std::uint64_t{13 * 7 - 1}}) {
    for (const bool alpha : {false, true}) {
      LoadOptions options;
      options.max_pixels = limit;
      options.alpha = alpha;
      for (const Case& c : cases) {
        const Read read = read_both(c.file, options);
        const std::string label = c.file.filename().string() + " at " + std::to_string(limit);
        const bool read_plain = io::read_plain_png(c.file, options).has_value();
        // Read here only where the module reads it too, and then as expected.
        if (!read.module_error.empty()) {
          EXPECT_FALSE(read_plain) << label << ": " << read.module_error;
        } else {
          EXPECT_EQ(read_plain, c.plain) << label;
          plain_reads += read_plain ? 1 : 0;
        }
      }
    }
  }
  EXPECT_GT(plain_reads, cases.size() * 2);
  // (What the chunks tell the module, it says.)
  for (const char* turned :
       {"exif.png", "exif-text.png", "orientation-text.png", "orientation-ztxt.png"}) {
    EXPECT_EQ(load_image(dir / turned).orientation, 6) << turned;
  }
  EXPECT_TRUE(load_image(dir / "animated.png").more_pages);
  std::filesystem::remove_all(dir);
}

// A picture written to PNG without the module holds what the module's own
// PNG holds; a histogram drawn from a PNG into a PNG loads no OpenImageIO.
TEST(ImageModule, PngPicturesAreWrittenWithoutTheModuleAsTheModuleWritesThem) {
  namespace fs = std::filesystem;
  const fs::path dir = test::temp_dir();
  const io::ImageLibrary& module = io::image_library(ErrorKind::Input);
  for (const auto [width, height] : {std::pair{37U, 11U}, std::pair{1U, 1U}, std::pair{300U, 2U}}) {
    Picture picture;
    picture.width = width;
    picture.height = height;
    for (std::uint32_t y = 0; y < height; ++y) {
      for (std::uint32_t x = 0; x < width; ++x) {
        for (int c = 0; c < 4; ++c) {
          picture.rgba.push_back(static_cast<std::uint8_t>(scattered(x, y, c, 8)));
        }
      }
    }
    const std::string label = std::to_string(width) + "x" + std::to_string(height);
    std::vector<unsigned char> encoded_here;
    ASSERT_TRUE(io::encode_plain_png(picture, encoded_here)) << label;
    save_picture(dir / "plain.png", picture);
    EXPECT_EQ(test::file_text(dir / "plain.png"),
              std::string(encoded_here.begin(), encoded_here.end()))
        << label;
    std::vector<unsigned char> bytes;
    const io::Encoded encoded =
        module.encode_picture(dir / "module.png", dir / "module.png", picture, bytes);
    ASSERT_TRUE(encoded.error.empty()) << encoded.error;
    ASSERT_TRUE(encoded.in_memory);
    std::ofstream(dir / "module.png", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    const Image plain = module.load_image(dir / "plain.png", {});
    const Image by_module = module.load_image(dir / "module.png", {});
    ASSERT_EQ(plain.format, (PixelFormat{ChannelLayout::RGB, SampleType::U8})) << label;
    ASSERT_EQ(by_module.format, plain.format) << label;
    ASSERT_EQ(plain.width, width);
    ASSERT_EQ(plain.height, height);
    EXPECT_FALSE(plain.alpha) << label;
    for (std::uint32_t y = 0; y < height; ++y) {
      ASSERT_EQ(
          std::memcmp(plain.storage.data() + y * plain.stride,
                      by_module.storage.data() + y * by_module.stride, std::size_t{width} * 3),
          0)
          << label << " row " << y;
      // And the picture's own colours.
      for (std::uint32_t x = 0; x < width; ++x) {
        for (std::uint32_t c = 0; c < 3; ++c) {
          ASSERT_EQ(std::to_integer<int>(plain.storage.data()[y * plain.stride + x * 3 + c]),
                    picture.rgba[(std::size_t{y} * width + x) * 4 + c])
              << label;
        }
      }
    }
  }
  // A picture of no pixels, or of fewer bytes than its size says, is not encoded here,
  // and not written at all.
  std::vector<unsigned char> bytes;
  EXPECT_FALSE(io::encode_plain_png(Picture{}, bytes));
  EXPECT_FALSE(io::encode_plain_png(Picture{4, 4, std::vector<std::uint8_t>(63)}, bytes));
  for (const Picture& wrong : {Picture{}, Picture{4, 4, std::vector<std::uint8_t>(63)},
                               Picture{4, 4, std::vector<std::uint8_t>(68)}}) {
    for (const char* name : {"wrong.png", "wrong.tif"}) {
      try {
        save_picture(dir / name, wrong);
        ADD_FAILURE() << "no error";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument) << e.what();
      }
      EXPECT_FALSE(fs::exists(dir / name));
    }
  }
  int status = -1;
  EXPECT_FALSE(cli_loads_image_library(
      {"draw", kCoffee.string(), "--device", "cpu", "-o", (dir / "histogram.png").string()},
      status));
  EXPECT_EQ(status, 0);
  EXPECT_EQ(load_image(dir / "histogram.png").codec, "png");
  std::filesystem::remove_all(dir);
}

// An image written to PNG with a PNG's metadata without the module is the
// file the module writes, byte for byte (its pixels, offset and time chunks
// and then the source's metadata, io/kept_metadata.hpp); a source whose
// metadata the module would read otherwise is left to it.
TEST(ImageModule, AdjustedPngsAreWrittenWithoutTheModuleAsTheModuleWritesThem) {
  namespace fs = std::filesystem;
  const fs::path dir = test::temp_dir();
  const io::ImageLibrary& module = io::image_library(ErrorKind::Input);
  const auto time = [](int year, int month, int day, int hour, int minute, int second) {
    return test::png_chunk(
        "tIME",
        big16(static_cast<std::uint32_t>(year)) +
            std::string{static_cast<char>(month), static_cast<char>(day), static_cast<char>(hour),
                        static_cast<char>(minute), static_cast<char>(second)});
  };
  const std::string density =
      test::png_chunk("pHYs", std::string("\0\0\x0e\xc4\0\0\x0e\xc4\x01", 9));
  const std::string text = test::png_chunk("tEXt", std::string("Title\0A title", 13));
  struct Source {
    std::string name;
    std::vector<std::string> before, after;
    bool plain;
  };
  const std::vector<Source> sources = {
      {"bare", {}, {}, true},
      {"timed", {time(2013, 8, 5, 14, 15, 34)}, {}, true},  // (files[1])
      {"described", {density, text, time(1999, 12, 31, 23, 59, 59)}, {}, true},
      {"colour",
       {test::png_chunk("gAMA", std::string("\0\0\xb1\x8f", 4)),
        test::png_chunk("sRGB", std::string(1, '\0'))},
       {},
       true},
      {"text-after", {}, {text, time(2020, 1, 2, 3, 4, 5)}, true},
      {"ztxt",
       {test::png_chunk("zTXt", std::string("Comment\0\0", 9) +
                                    std::string("\x78\x9c\x4b\x04\x00\x00\x62\x00\x62", 9))},
       {},
       true},
      {"year-0", {time(0, 1, 1, 0, 0, 0)}, {}, false},
      // (libpng passes over a time of no such month or hour, as the module's reader.)
      {"month-13", {time(2020, 13, 1, 0, 0, 0)}, {}, true},
      {"hour-24", {time(2020, 1, 1, 24, 0, 0)}, {}, true},
      {"leap-second", {time(2016, 12, 31, 23, 59, 60)}, {}, false},
      // A time in text takes the place of the tIME chunk's in the module's reading (under
      // the key DateTime), or puts the chunk's under another name (datetime).
      {"datetime-text",
       {time(2013, 8, 5, 14, 15, 34), test::png_chunk("tEXt", std::string("DateTime\0"
                                                                          "2020:01:01 00:00:00",
                                                                          28))},
       {},
       false},
      {"datetime-lower",
       {time(2013, 8, 5, 14, 15, 34), test::png_chunk("tEXt", std::string("datetime\0"
                                                                          "2020:01:01 00:00:00",
                                                                          28))},
       {},
       false},
      {"orientation-text",
       {test::png_chunk("tEXt", std::string("Orientation\0"
                                            "6",
                                            13))},
       {},
       false},
      {"exif", {test::png_chunk("eXIf", std::string("MM\0\x2a\0\0\0\x08\0\0", 10))}, {}, false},
      {"profile",
       {test::png_chunk(
           "iCCP", std::string("p\0\0", 3) + std::string("\x78\x9c\x03\x00\x00\x00\x00\x01", 8))},
       {},
       false},
      {"private", {test::png_chunk("prVt", "x")}, {}, false},
  };
  std::vector<fs::path> files;
  for (const Source& source : sources) {
    test::PngSpec spec;
    spec.width = 5;
    spec.height = 3;
    spec.before_data = source.before;
    spec.after_data = source.after;
    files.push_back(dir / (source.name + ".png"));
    std::ofstream(files.back(), std::ios::binary) << test::build_png(
        spec, [](std::uint32_t x, std::uint32_t y, int c) { return scattered(x, y, c, 8); });
  }
  // A bad CRC, and a file cut short, are the module's.
  std::string damaged = test::file_text(files[2]);
  damaged[8 + 25 + 12] ^= 1;  // in pHYs's data
  files.push_back(dir / "damaged.png");
  std::ofstream(files.back(), std::ios::binary) << damaged;
  files.push_back(dir / "cut.png");
  std::ofstream(files.back(), std::ios::binary) << damaged.substr(0, damaged.size() - 12);
  files.push_back(kCoffee);
  const auto plain_source = [&](std::size_t i) {
    return i < sources.size() ? sources[i].plain : files[i] == kCoffee;
  };
  std::size_t written_here = 0;
  for (const PixelFormat format : {PixelFormat{ChannelLayout::Grey, SampleType::U8},
                                   PixelFormat{ChannelLayout::RGB, SampleType::U8},
                                   PixelFormat{ChannelLayout::RGBA, SampleType::U8},
                                   PixelFormat{ChannelLayout::Grey, SampleType::U16},
                                   PixelFormat{ChannelLayout::RGB, SampleType::U16},
                                   PixelFormat{ChannelLayout::RGBA, SampleType::U16}}) {
    // Rows padded, samples scattered over every level.
    const std::uint32_t width = 37, height = 9;
    const std::size_t row = std::size_t{width} * pixel_bytes(format);
    Image image = Image::allocate(width, height, format, row + 24);
    const std::size_t samples = row / (format.sample == SampleType::U16 ? 2 : 1);
    for (std::uint32_t y = 0; y < height; ++y) {
      std::byte* at = image.storage.data() + y * image.stride;
      for (std::size_t i = 0; i < samples; ++i) {
        if (format.sample == SampleType::U8) {
          at[i] = static_cast<std::byte>(scattered(static_cast<std::uint32_t>(i), y, 0, 8));
        } else {
          const auto v =
              static_cast<std::uint16_t>(scattered(static_cast<std::uint32_t>(i), y, 1, 16));
          std::memcpy(at + 2 * i, &v, 2);
        }
      }
    }
    const bool colour = format.layout != ChannelLayout::Grey;
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::string label = files[i].filename().string() + " as " +
                                std::to_string(channel_count(format.layout)) + " channels of " +
                                (format.sample == SampleType::U8 ? "8" : "16") + " bits";
      const std::vector<unsigned char> source = test::file_bytes(files[i]);
      std::vector<unsigned char> here;
      const bool plain = io::encode_plain_png(image.view(), source, here);
      EXPECT_EQ(plain, plain_source(i)) << label;
      // What the module writes (picture_file.cpp's steps after it).
      std::vector<unsigned char> by_module;
      const io::Encoded encoded =
          module.encode_image(dir / "m.png", dir / "m.png", image.view(), files[i], 90, by_module);
      ASSERT_TRUE(encoded.error.empty()) << label << ": " << encoded.error;
      ASSERT_TRUE(encoded.in_memory) << label;
      io::keep_metadata(source, by_module, colour, !encoded.unsound_profile);
      // save_image's file: the module's bytes either way.
      EXPECT_EQ(save_image(dir / "out.png", image.view(), files[i], {}), encoded.left_out) << label;
      EXPECT_EQ(test::file_bytes(dir / "out.png"), by_module) << label;
      // A time in text is why such a source is the module's: the tIME chunk's alone
      // is not what it writes.
      if (files[i].filename().string().rfind("datetime-", 0) == 0) {
        std::vector<unsigned char> chunk_time;
        ASSERT_TRUE(io::encode_plain_png(image.view(), test::file_bytes(files[1]), chunk_time));
        io::keep_metadata(source, chunk_time, colour);
        EXPECT_NE(chunk_time, by_module) << label;
      }
      if (!plain) continue;
      ++written_here;
      EXPECT_TRUE(encoded.left_out.empty()) << label << ": " << encoded.left_out;
      io::keep_metadata(source, here, colour);
      EXPECT_EQ(here, by_module) << label;
    }
    // With no source, too.
    std::vector<unsigned char> here, by_module;
    ASSERT_TRUE(io::encode_plain_png(image.view(), {}, here));
    ASSERT_TRUE(module.encode_image(dir / "m.png", dir / "m.png", image.view(), {}, 90, by_module)
                    .error.empty());
    EXPECT_EQ(here, by_module);
    // And the pixels are the image's.
    save_image(dir / "out.png", image.view());
    LoadOptions with_alpha;
    with_alpha.alpha = true;
    const Image back = load_image(dir / "out.png", with_alpha);
    ASSERT_EQ(back.format, format);
    for (std::uint32_t y = 0; y < height; ++y) {
      EXPECT_EQ(std::memcmp(back.storage.data() + y * back.stride,
                            image.storage.data() + y * image.stride, row),
                0);
    }
  }
  EXPECT_EQ(written_here, 6 * 9U);
  // An equalised PNG, from the command line, loads no OpenImageIO.
  int status = -1;
  EXPECT_FALSE(cli_loads_image_library(
      {"equalize", kCoffee.string(), "--device", "cpu", "-o", (dir / "eq.png").string()}, status));
  EXPECT_EQ(status, 0);
  std::filesystem::remove_all(dir);
}

// An image written to JPEG with a JPEG's metadata without the module is the
// file the module writes, byte for byte: the quality's tables, the source's
// chroma subsampling, and the source's JFIF header and metadata in place of
// the writer's. A source with neither is left to the module (whose writer's
// own Exif stays), as are images of 16 bits or alpha.
TEST(ImageModule, AdjustedJpegsAreWrittenWithoutTheModuleAsTheModuleWritesThem) {
  namespace fs = std::filesystem;
  const fs::path dir = test::temp_dir();
  const io::ImageLibrary& module = io::image_library(ErrorKind::Input);
  const auto segment = [](unsigned marker, const std::string& data) {
    const std::size_t n = data.size() + 2;
    return std::string{'\xFF', static_cast<char>(marker), static_cast<char>(n >> 8),
                       static_cast<char>(n & 0xFF)} +
           data;
  };
  // `jpeg` with its segments before the frame header other than the tables
  // left out, and `added` put after its start of image.
  const auto respliced = [](const std::string& jpeg, const std::string& added) {
    const std::span<const unsigned char> b(reinterpret_cast<const unsigned char*>(jpeg.data()),
                                           jpeg.size());
    const io::JpegHeader header = io::jpeg_header(b);
    std::string out = jpeg.substr(0, 2) + added;
    for (const io::JpegSegment& s : header.segments) {
      if ((s.marker >= 0xE0 && s.marker <= 0xEF) || s.marker == 0xFE) continue;
      out += jpeg.substr(s.begin, s.end - s.begin);
    }
    return out + jpeg.substr(header.scan);
  };
  const std::string jfif = segment(0xE0, std::string("JFIF\0\x01\x02\x01\x01\x2c\x01\x2c\0\0", 14));
  const std::string exif = segment(
      0xE1, std::string(
                "Exif\0\0MM\0\x2a\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0", 32));
  const std::string comment = segment(0xFE, "A comment");
  struct Source {
    std::string name;
    std::string added;  // spliced into an ffmpeg JPEG; "-" for the file as it is
    bool plain;
  };
  const std::vector<Source> kinds = {{"as-made", "-", true},
                                     {"jfif", jfif, true},
                                     {"exif", exif, true},
                                     {"comment", comment, true},
                                     {"all", jfif + exif + comment, true},
                                     {"bare", "", false},
                                     {"credentials", segment(0xEB, "JP"), false}};
  std::vector<std::pair<fs::path, bool>> sources;
  for (const char* sampling : {"yuvj444p", "yuvj422p", "yuvj420p", "yuvj440p", "gray"}) {
    const fs::path made = dir / (std::string(sampling) + ".jpg");
    ASSERT_TRUE(test::ffmpeg("-i '" + kCoffee.string() + "' -vf scale=64:48 -pix_fmt " + sampling +
                             " '" + made.string() + "'"));
    const std::string jpeg = test::file_text(made);
    for (const Source& kind : kinds) {
      const fs::path file = dir / (std::string(sampling) + "-" + kind.name + ".jpg");
      std::ofstream(file, std::ios::binary)
          << (kind.added == "-" ? jpeg : respliced(jpeg, kind.added));
      sources.emplace_back(file, kind.plain);
    }
  }
  sources.emplace_back(kRocket, true);
  std::size_t written_here = 0;
  for (const ChannelLayout layout : {ChannelLayout::Grey, ChannelLayout::RGB}) {
    const PixelFormat format{layout, SampleType::U8};
    const std::uint32_t width = 37, height = 19;
    const std::size_t row = std::size_t{width} * pixel_bytes(format);
    Image image = Image::allocate(width, height, format, row + 24);
    for (std::uint32_t y = 0; y < height; ++y) {
      for (std::size_t i = 0; i < row; ++i) {
        image.storage.data()[y * image.stride + i] = static_cast<std::byte>(
            (i * 7 + y * 13) % 256 ^ scattered(static_cast<std::uint32_t>(i), y, 0, 5));
      }
    }
    const bool colour = layout == ChannelLayout::RGB;
    for (const auto& [file, plain_source] : sources) {
      for (const int quality : {90, 37}) {
        const std::string label = file.filename().string() + (colour ? " in colour" : " in grey") +
                                  " at " + std::to_string(quality);
        const std::vector<unsigned char> source = test::file_bytes(file);
        std::vector<unsigned char> here;
        const bool plain = io::encode_plain_jpeg(image.view(), source, quality, here);
        EXPECT_EQ(plain, plain_source) << label;
        std::vector<unsigned char> by_module;
        const io::Encoded encoded = module.encode_image(dir / "m.jpg", dir / "m.jpg", image.view(),
                                                        file, quality, by_module);
        ASSERT_TRUE(encoded.error.empty()) << label << ": " << encoded.error;
        ASSERT_TRUE(encoded.in_memory) << label;
        io::keep_metadata(source, by_module, colour, !encoded.unsound_profile);
        SaveOptions options;
        options.quality = quality;
        EXPECT_EQ(save_image(dir / "out.jpg", image.view(), file, options), encoded.left_out)
            << label;
        EXPECT_EQ(test::file_bytes(dir / "out.jpg"), by_module) << label;
        if (!plain) continue;
        ++written_here;
        EXPECT_TRUE(encoded.left_out.empty()) << label << ": " << encoded.left_out;
        io::keep_metadata(source, here, colour);
        EXPECT_EQ(here, by_module) << label;
      }
    }
  }
  EXPECT_EQ(written_here, 2 * 2 * (5 * 5 + 1U));
  // No source, 16 bits or alpha: the module's.
  Image deep = Image::allocate(4, 4, {ChannelLayout::RGB, SampleType::U16});
  Image rgba = Image::allocate(4, 4, {ChannelLayout::RGBA, SampleType::U8});
  std::vector<unsigned char> bytes;
  const std::vector<unsigned char> rocket = test::file_bytes(kRocket);
  EXPECT_FALSE(io::encode_plain_jpeg(deep.view(), rocket, 90, bytes));
  EXPECT_FALSE(io::encode_plain_jpeg(rgba.view(), rocket, 90, bytes));
  EXPECT_FALSE(io::encode_plain_jpeg(load_image(kRocket).view(), {}, 90, bytes));
  // An equalised JPEG, from the command line, loads no OpenImageIO.
  int status = -1;
  EXPECT_FALSE(cli_loads_image_library(
      {"equalize", kRocket.string(), "--device", "cpu", "-o", (dir / "eq.jpg").string()}, status));
  EXPECT_EQ(status, 0);
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
  const fs::path image = write_ppm(dir / "grey.ppm", 6, 4);  // read by the module
  const auto run = [&] {
    const std::string command = "'" + program.string() + "' compute '" + image.string() +
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
  const std::string image = write_ppm(dir / "grey.ppm", 6, 4).string();  // read by the module
  ::setenv("GPUHIST_IMAGES_MODULE", (dir / "libgpuhist-images.so").c_str(), 1);
  test::CliResult r = test::run_cli({"compute", image});
  EXPECT_EQ(r.status, 1);
  test::expect_one_line_error(r, "cannot find the image-file module");
  // A JPEG or a PNG read whole needs none.
  EXPECT_EQ(test::run_cli({"compute", kCoffee.string(), "--device", "cpu"}).status, 0);
  EXPECT_EQ(test::run_cli({"compute", kRocket.string(), "--device", "cpu"}).status, 0);

  // Not a shared library at all.
  std::ofstream(dir / "libgpuhist-images.so") << "not a library\n";
  r = test::run_cli({"compute", image});
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
