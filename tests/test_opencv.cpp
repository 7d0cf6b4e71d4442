// The R, G and B histograms of real photographs equal OpenCV's calcHist, and
// the comparison metrics of two photographs equal OpenCV's compareHist and EMD
// (OpenCV is a yardstick here only; gpuhist never links it).
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <span>

#include "gpuhist/compare.hpp"
#include "gpuhist/context.hpp"
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

}  // namespace
}  // namespace gpuhist
