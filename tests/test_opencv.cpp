// The R, G and B histograms of real photographs equal OpenCV's calcHist, the
// comparison metrics of two photographs equal OpenCV's compareHist and EMD, and
// equalisation and thresholds give OpenCV's pixels (OpenCV is a yardstick here
// only; gpuhist never links it).
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <span>

#include "gpuhist/adjust.hpp"
#include "gpuhist/adjust_image.hpp"
#include "gpuhist/clahe.hpp"
#include "gpuhist/compare.hpp"
#include "gpuhist/context.hpp"
#include "gpuhist/error.hpp"
#include "gpuhist/image_file.hpp"
#include "support/shared_context.hpp"

namespace gpuhist {
namespace {

class OpenCvYardstick : public ::testing::TestWithParam<const char*> {};

TEST_P(OpenCvYardstick, RgbCountsEqualCalcHist) {
  const std::string path = std::string(GPUHIST_SOURCE_DIR) + "/data/" + GetParam();
  const cv::Mat bgr = cv::imread(path, cv::IMREAD_COLOR);
  ASSERT_FALSE(bgr.empty());
  std::vector<cv::Mat> planes;
  cv::split(bgr, planes);

  const Image image = load_image(path);
  ASSERT_EQ(image.width, static_cast<std::uint32_t>(bgr.cols));
  ASSERT_EQ(image.height, static_cast<std::uint32_t>(bgr.rows));
  const Context& context = test::gpu_context();
  for (Strategy strategy : {Strategy::Cpu, Strategy::Gpu}) {
    const Histogram h = context.compute(image.view(), {}, RunOptions{strategy});
    const Channel order[3] = {Channel::Blue, Channel::Green, Channel::Red};  // OpenCV is BGR
    for (int c = 0; c < 3; ++c) {
      cv::Mat hist;
      const int channels[] = {0};
      const int size[] = {256};
      const float range[] = {0, 256};
      const float* ranges[] = {range};
      cv::calcHist(&planes[static_cast<std::size_t>(c)], 1, channels, cv::Mat(), hist, 1, size,
                   ranges);
      const auto ours = h.counts(order[c]);
      for (int bin = 0; bin < 256; ++bin) {
        ASSERT_EQ(ours[static_cast<std::size_t>(bin)],
                  static_cast<std::uint64_t>(hist.at<float>(bin)))
            << to_string(order[c]) << " bin " << bin << " with " << to_string(strategy);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Photos, OpenCvYardstick, ::testing::Values("coffee.png", "rocket.jpg"),
                         [](const auto& info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

// One channel as OpenCV's float histogram of frequencies (summing to 1).
cv::Mat frequencies(std::span<const std::uint64_t> counts) {
  cv::Mat hist(static_cast<int>(counts.size()), 1, CV_32F);
  for (std::size_t b = 0; b < counts.size(); ++b) {
    hist.at<float>(static_cast<int>(b)) = static_cast<float>(counts[b]);
  }
  cv::normalize(hist, hist, 1.0, 0.0, cv::NORM_L1);
  return hist;
}

// OpenCV's earth mover's distance between two 1-D histograms: signatures of
// (weight, bin) rows with the L1 ground distance, in bins.
double opencv_emd(const cv::Mat& p, const cv::Mat& q) {
  const auto signature = [](const cv::Mat& h) {
    cv::Mat s(h.rows, 2, CV_32F);
    for (int b = 0; b < h.rows; ++b) {
      s.at<float>(b, 0) = h.at<float>(b);
      s.at<float>(b, 1) = static_cast<float>(b);
    }
    return s;
  };
  return static_cast<double>(cv::EMD(signature(p), signature(q), cv::DIST_L1));
}

// OpenCV writes a float RGB image to TIFF as SGILog (LogLuv), whose floats
// the image library reads only as 8-bit values: refused, naming the cause,
// where it was counted as rgb8 of other values.
TEST(OpenCvYardstick, SgiLogTiffsAreRefused) {
  cv::Mat floats(8, 8, CV_32FC3);
  cv::randu(floats, 0.0f, 1.0f);
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("gpuhist-sgilog-" + std::to_string(::getpid()) + ".tiff");
  ASSERT_TRUE(cv::imwrite(file.string(), floats));
  try {
    (void)load_image(file);
    ADD_FAILURE() << "an SGILog TIFF was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    EXPECT_NE(std::string(e.what()).find("an SGILog (LogLuv) TIFF"), std::string::npos) << e.what();
  }
  std::filesystem::remove(file);
}

TEST(OpenCvYardstick, ComparisonMetricsEqualCompareHistAndEmd) {
  const Context& context = test::gpu_context();
  const std::string data = std::string(GPUHIST_SOURCE_DIR) + "/data/";
  for (std::uint32_t bins : {256U, 64U}) {
    HistogramOptions options;
    options.bins = bins;
    const Histogram coffee =
        context.compute(load_image(data + "coffee.png").view(), options, RunOptions{Strategy::Gpu});
    const Histogram rocket =
        context.compute(load_image(data + "rocket.jpg").view(), options, RunOptions{Strategy::Gpu});
    for (Channel channel : kAllChannels) {
      SCOPED_TRACE(std::string(to_string(channel)) + ", " + std::to_string(bins) + " bins");
      const Comparison ours = compare(coffee.counts(channel), rocket.counts(channel));
      const cv::Mat p = frequencies(coffee.counts(channel));
      const cv::Mat q = frequencies(rocket.counts(channel));
      // OpenCV works in float frequencies: agreement to float precision.
      const auto expect_close = [](double value, double yardstick) {
        EXPECT_NEAR(value, yardstick, 1e-5 * std::max(1.0, std::abs(yardstick)));
      };
      expect_close(ours.correlation, cv::compareHist(p, q, cv::HISTCMP_CORREL));
      expect_close(ours.chi_square, cv::compareHist(p, q, cv::HISTCMP_CHISQR));
      expect_close(ours.intersection, cv::compareHist(p, q, cv::HISTCMP_INTERSECT));
      expect_close(ours.bhattacharyya, cv::compareHist(p, q, cv::HISTCMP_BHATTACHARYYA));
      expect_close(ours.kl_divergence, cv::compareHist(p, q, cv::HISTCMP_KL_DIV));
      expect_close(ours.emd, opencv_emd(p, q));
      // The photographs really differ, so equal values are not a coincidence of zeros.
      EXPECT_LT(ours.intersection, 0.9);
      EXPECT_GT(ours.emd, 1.0);
    }
  }
}

// The grey (luminance, Rec.601 as OpenCV weighs it) of a photo, through gpuhist.
std::vector<std::uint8_t> grey_of(const std::string& path, std::uint32_t& width,
                                  std::uint32_t& height) {
  const Image image = load_image(path);
  Lut identity = threshold_lut(image.format, 0, LumaWeights::Rec601);
  auto& table = identity.tables[static_cast<std::size_t>(Channel::Luminance)];
  for (std::uint32_t v = 0; v < 256; ++v) table[v] = static_cast<std::uint16_t>(v);
  std::vector<std::uint8_t> grey(image.view().pixel_count());
  apply_lut_cpu(image.view(), identity, std::as_writable_bytes(std::span(grey)));
  width = image.width;
  height = image.height;
  return grey;
}

// The grey of the photo a test is given, as an OpenCV matrix and a view of the same bytes.
struct GreyPhoto {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> grey;
  explicit GreyPhoto(const char* name)
      : grey(grey_of(std::string(GPUHIST_SOURCE_DIR) + "/data/" + name, width, height)) {}
  cv::Mat mat() {
    return {static_cast<int>(height), static_cast<int>(width), CV_8UC1, grey.data()};
  }
  ImageView view() const {
    return ImageView::packed(grey.data(), width, height, {ChannelLayout::Grey, SampleType::U8});
  }
};

class OpenCvAdjust : public ::testing::TestWithParam<const char*> {};

TEST_P(OpenCvAdjust, EqualisationAndThresholdsGiveOpenCvsPixels) {
  GreyPhoto photo(GetParam());
  const cv::Mat mat = photo.mat();
  const ImageView view = photo.view();
  const Context& context = test::gpu_context();
  const Histogram h = context.compute(view, tone_options(view.format), RunOptions{Strategy::Gpu});
  const auto counts = h.counts(Channel::Luminance);
  const auto apply = [&](const Lut& lut) {
    std::vector<std::uint8_t> out(photo.grey.size());
    context.apply_lut(view, lut, std::as_writable_bytes(std::span(out)));
    return cv::Mat(mat.rows, mat.cols, CV_8UC1, out.data()).clone();
  };
  const auto expect_same = [](const cv::Mat& ours, const cv::Mat& theirs, const char* what) {
    EXPECT_EQ(cv::countNonZero(ours != theirs), 0) << what;
  };

  cv::Mat equalized;
  cv::equalizeHist(mat, equalized);
  expect_same(apply(equalize_lut(h, view.format, ToneChannels::Each)), equalized, "equalizeHist");

  cv::Mat binary;
  const double otsu = cv::threshold(mat, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_OTSU);
  EXPECT_EQ(otsu_threshold(counts), static_cast<std::int32_t>(otsu));
  expect_same(apply(threshold_lut(view.format, otsu_threshold(counts))), binary, "Otsu");

  const double triangle =
      cv::threshold(mat, binary, 0, 255, cv::THRESH_BINARY | cv::THRESH_TRIANGLE);
  EXPECT_EQ(triangle_threshold(counts), static_cast<std::int32_t>(triangle));
  expect_same(apply(threshold_lut(view.format, triangle_threshold(counts))), binary, "triangle");
}

TEST_P(OpenCvAdjust, ClaheGivesOpenCvsPixels) {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> grey =
      grey_of(std::string(GPUHIST_SOURCE_DIR) + "/data/" + GetParam(), width, height);
  // 16-bit samples from the same photo, with low bits that vary.
  std::vector<std::uint16_t> deep(grey.size());
  for (std::size_t i = 0; i < grey.size(); ++i) {
    deep[i] = static_cast<std::uint16_t>(grey[i] * 257 + (i * 7919) % 257);
  }
  const Context& context = test::gpu_context();
  for (const auto& [tx, ty, clip] : {std::tuple{8U, 8U, 2.0}, std::tuple{8U, 8U, 40.0},
                                     std::tuple{7U, 5U, 3.0}, std::tuple{4U, 3U, 0.0}}) {
    ClaheOptions options;
    options.tiles_x = tx;
    options.tiles_y = ty;
    options.clip_limit = clip;
    const auto clahe = cv::createCLAHE(clip, cv::Size(static_cast<int>(tx), static_cast<int>(ty)));
    for (bool sixteen : {false, true}) {
      SCOPED_TRACE(std::to_string(tx) + "x" + std::to_string(ty) + " tiles, clip " +
                   std::to_string(clip) + (sixteen ? ", 16-bit" : ", 8-bit"));
      const int type = sixteen ? CV_16UC1 : CV_8UC1;
      void* data = sixteen ? static_cast<void*>(deep.data()) : static_cast<void*>(grey.data());
      const cv::Mat mat(static_cast<int>(height), static_cast<int>(width), type, data);
      cv::Mat theirs;
      clahe->apply(mat, theirs);
      const ImageView view = ImageView::packed(
          data, width, height, {ChannelLayout::Grey, sixteen ? SampleType::U16 : SampleType::U8});
      cv::Mat cpu(mat.rows, mat.cols, type), gpu(mat.rows, mat.cols, type);
      const auto bytes = [](cv::Mat& m) {
        return std::span(reinterpret_cast<std::byte*>(m.data), m.total() * m.elemSize());
      };
      clahe_cpu(view, options, bytes(cpu));
      context.clahe(view, options, bytes(gpu), RunOptions{Strategy::Gpu});
      EXPECT_EQ(cv::countNonZero(cpu != theirs), 0);
      EXPECT_EQ(cv::countNonZero(gpu != theirs), 0);
    }
  }
}

TEST_P(OpenCvAdjust, ClaheOnTheCpuGivesOpenCvsPixelsForFewAndManyTiles) {
  // Each tile counted with a call of its own, and its tables made before the
  // next is counted: OpenCV's pixels, from two tiles to 65536 of a few pixels
  // each over an image extended to fit them.
  GreyPhoto photo(GetParam());
  const cv::Mat mat = photo.mat();
  const ImageView view = photo.view();
  const Context& context = test::gpu_context();
  for (const auto& [tx, ty] :
       {std::pair{2U, 2U}, std::pair{3U, 1U}, std::pair{16U, 16U}, std::pair{256U, 256U}}) {
    SCOPED_TRACE(std::to_string(tx) + "x" + std::to_string(ty) + " tiles");
    Adjustment clahe;
    clahe.kind = AdjustKind::Clahe;
    clahe.tiles_x = tx;
    clahe.tiles_y = ty;
    clahe.clip_limit = 3.0;
    cv::Mat theirs;
    cv::createCLAHE(3.0, cv::Size(static_cast<int>(tx), static_cast<int>(ty)))->apply(mat, theirs);
    cv::Mat ours(mat.rows, mat.cols, CV_8UC1);
    (void)adjust_image(context, view, clahe,
                       std::span(reinterpret_cast<std::byte*>(ours.data), ours.total()),
                       RunOptions{Strategy::Cpu}, false);
    EXPECT_EQ(cv::countNonZero(ours != theirs), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Photos, OpenCvAdjust, ::testing::Values("coffee.png", "rocket.jpg"),
                         [](const auto& info) {
                           std::string name = info.param;
                           return name.substr(0, name.find('.'));
                         });

}  // namespace
}  // namespace gpuhist
