// The CPU engine's weight packer: Const weights of convolutions, transposed convolutions
// and matrix products are stored in the compiled model in the layout oneDNN reads. Every graph is
// also compiled with openge.cpuWeightLayout=plain, and the two give the same numbers, bit for bit
// (the same primitive reads the same weights).
#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "../process_memory.h"
#include "fusion_test_util.h"
#include "ge/graph/file_bytes.h"
#include "ge/graph/utils/attr_utils.h"
#include "ge/graph/utils/op_desc_utils.h"
#include "runtime_test_util.h"

namespace ge {
namespace {

using fusion_test::Compile;
using fusion_test::Random;
using testing::ProtoGraph;

constexpr char kLayoutAttr[] = "_cpu_weight_layout";

AttrValue Ints(std::vector<int64_t> v) { return {std::move(v)}; }

/// x [1, 16, 10, 10] -> conv1 (16 -> 32, 3x3) -> relu -> dw (depthwise 3x3) -> up (transposed 2x2,
/// stride 2, 32 -> 8) -> y; the convolutions' filters are Consts.
ComputeGraphPtr ConvNet() {
  ProtoGraph b("convnet");
  NodePtr x = b.Data("x", {1, 16, 10, 10});
  NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {32, 16, 3, 3}, Random(size_t{32} * 16 * 9, 1));
  NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {32, 1, 3, 3}, Random(size_t{32} * 9, 2));
  NodePtr w3 = b.Const<float>("w3", DT_FLOAT, {32, 8, 2, 2}, Random(size_t{32} * 8 * 4, 3));
  NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, {{"pads", Ints({1, 1, 1, 1})}});
  NodePtr relu = b.Op("Relu", "relu", {{conv1, 0}});
  NodePtr dw = b.Op("Conv2D", "dw", {{relu, 0}, {w2, 0}},
                    {{"pads", Ints({1, 1, 1, 1})}, {"group", AttrValue(int64_t{32})}});
  NodePtr up = b.Op("Conv2DTranspose", "up", {{dw, 0}, {w3, 0}}, {{"strides", Ints({2, 2})}});
  b.Output({{up, 0}});
  return b.graph();
}

/// x [4, 64] -> fc (MatMulV2, transpose_x2, Const [48, 64]) -> y.
ComputeGraphPtr Fc() {
  ProtoGraph b("fc");
  NodePtr x = b.Data("x", {4, 64});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {48, 64}, Random(size_t{48} * 64, 4));
  NodePtr fc = b.Op("MatMulV2", "fc", {{x, 0}, {w, 0}}, {{"transpose_x2", AttrValue(true)}});
  b.Output({{fc, 0}});
  return b.graph();
}

class WeightPackingTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { testing::LoadOps(); }

  static std::string Layout(const CompiledModel& m, const std::string& node) {
    std::string layout;
    AttrUtils::GetStr(m.graph->FindNode(node)->GetOpDesc(), kLayoutAttr, layout);
    return layout;
  }
  static NodePtr Weight(const CompiledModel& m, const std::string& node) {
    return m.graph->FindNode(node)->GetInDataAnchor(1)->GetPeerOutAnchor()->GetOwnerNode();
  }
  static std::vector<std::vector<float>> RunOn(CompiledModel m, const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    return fusion_test::Run(
        std::move(m), {testing::MakeTensor(DT_FLOAT, dims, Random(static_cast<size_t>(n), 9))});
  }

  /// Why `m` fails to load (a test failure when it loads).
  static std::string LoadError(CompiledModel m) {
    RuntimeOptions options;
    options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
    auto model = LoadedModel::Load(std::move(m), options);
    EXPECT_FALSE(model.ok());
    return model.ok() ? std::string() : model.status().message();
  }

  /// Compiles `make()` packed (returned) and plain; both give the same numbers.
  static CompiledModel ExpectSameAsPlain(const std::function<ComputeGraphPtr()>& make,
                                         const std::vector<int64_t>& dims) {
    auto packed = Compile(make());
    auto plain = Compile(make(), {{"openge.cpuWeightLayout", "plain"}});
    EXPECT_TRUE(packed.ok()) << packed.status().message();
    EXPECT_TRUE(plain.ok()) << plain.status().message();
    if (!packed.ok() || !plain.ok()) return CompiledModel{};
    const auto a = RunOn(*packed, dims);
    const auto b = RunOn(*plain, dims);
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, b);
    for (const NodePtr& node : plain->graph->GetAllNodes()) {
      EXPECT_FALSE(node->GetOpDescBarePtr()->HasAttr(kLayoutAttr)) << node->GetName();
    }
    return std::move(packed).value();
  }
};

TEST_F(WeightPackingTest, ConvolutionFiltersAreStoredInOneDnnLayouts) {
  CompiledModel m = ExpectSameAsPlain(ConvNet, {1, 16, 10, 10});
  ASSERT_NE(m.graph, nullptr);
  const std::map<std::string, std::pair<std::string, std::vector<int64_t>>> filters = {
      {"conv1", {"w1", {32, 16, 3, 3}}},
      {"dw", {"w2", {32, 1, 3, 3}}},
      {"up", {"w3", {32, 8, 2, 2}}}};
  for (const auto& [conv, filter] : filters) {
    SCOPED_TRACE(conv);
    const std::string layout = Layout(m, conv);
    // oneDNN's AVX2 deconvolution reads its filter as it is: nothing to pack there.
    if (conv == std::string("up") && !testing::HostHasAvx512()) {
      EXPECT_TRUE(layout.empty()) << layout;
      continue;
    }
    ASSERT_FALSE(layout.empty());
    const NodePtr weight = Weight(m, conv);
    EXPECT_EQ(weight->GetType(), "Const");
    EXPECT_EQ(weight->GetName(), filter.first + "/" + layout);
    EXPECT_EQ(m.graph->FindNode(filter.first), nullptr);  // nothing reads the plain filter now
    const GeTensorDesc& desc = m.graph->FindNode(conv)->GetOpDescBarePtr()->GetInputDesc(1);
    EXPECT_EQ(desc.GetShape().GetDimNum(), 1U);
    EXPECT_EQ(desc.GetOriginShape().GetDims(), filter.second);
    int64_t logical = 1;
    for (int64_t d : filter.second) logical *= d;
    EXPECT_GE(desc.GetShape().GetDim(0), logical);  // blocks may pad
  }
}

TEST_F(WeightPackingTest, AMatrixProductOperandIsStoredPacked) {
  CompiledModel m = ExpectSameAsPlain(Fc, {4, 64});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_FALSE(Layout(m, "fc").empty());
  EXPECT_EQ(Weight(m, "fc")->GetName(), "w/" + Layout(m, "fc"));
}

// Two convolutions reading one filter in the same layout share one stored Const.
TEST_F(WeightPackingTest, ASharedFilterIsStoredOnce) {
  auto make = [] {
    ProtoGraph b("shared");
    NodePtr x = b.Data("x", {1, 16, 8, 8});
    NodePtr w =
        b.Const<float>("w", DT_FLOAT, {16, 16, 3, 3}, Random(size_t{16} * 16 * 9, 5, -0.3F, 0.3F));
    NodePtr c1 = b.Op("Conv2D", "c1", {{x, 0}, {w, 0}}, {{"pads", Ints({1, 1, 1, 1})}});
    NodePtr r = b.Op("Sigmoid", "r", {{c1, 0}});
    NodePtr c2 = b.Op("Conv2D", "c2", {{r, 0}, {w, 0}}, {{"pads", Ints({1, 1, 1, 1})}});
    b.Output({{c2, 0}});
    return b.graph();
  };
  CompiledModel m = ExpectSameAsPlain(make, {1, 16, 8, 8});
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(Layout(m, "c1"), Layout(m, "c2"));
  EXPECT_EQ(Weight(m, "c1"), Weight(m, "c2"));
  int64_t consts = 0;
  for (const NodePtr& node : m.graph->GetAllNodes()) consts += node->GetType() == "Const" ? 1 : 0;
  EXPECT_EQ(consts, 1);
}

// Kernels are probed and their weights packed on every core, the largest first, the graph
// changed in the graph's order: a chain of matrix products of several widths (the largest last),
// one weight read by two of them, packs every weight, the shared one once, to the same graph each
// time and the plain compile's numbers.
TEST_F(WeightPackingTest, ManyWeightsPackedAtOnceGiveTheSameGraph) {
  constexpr int kLayers = 9;
  // Layer i maps width[i] to width[i + 1]; layers 1 and 5 share a 64 x 64 weight.
  static constexpr int64_t kWidth[kLayers + 1] = {64, 64, 64, 32, 160, 64, 64, 96, 256, 64};
  auto make = [] {
    ProtoGraph b("chain");
    NodePtr h = b.Data("x", {4, kWidth[0]});
    NodePtr shared = b.Const<float>("shared", DT_FLOAT, {64, 64}, Random(size_t{64} * 64, 40));
    for (int i = 0; i < kLayers; ++i) {
      const std::string n = std::to_string(i);
      const int64_t in = kWidth[i], out = kWidth[i + 1];
      NodePtr w = i % 4 == 1 ? shared
                             : b.Const<float>("w" + n, DT_FLOAT, {in, out},
                                              Random(static_cast<size_t>(in * out),
                                                     static_cast<uint32_t>(41 + i), -0.2F, 0.2F));
      h = b.Op("MatMulV2", "fc" + n, {{h, 0}, {w, 0}});
      h = b.Op("Tanh", "act" + n, {{h, 0}});
    }
    b.Output({{h, 0}});
    return b.graph();
  };
  CompiledModel m = ExpectSameAsPlain(make, {4, kWidth[0]});
  ASSERT_NE(m.graph, nullptr);
  auto names = [](const CompiledModel& c) {
    std::vector<std::string> all;
    for (const NodePtr& node : c.graph->GetAllNodes()) all.push_back(node->GetName());
    return all;
  };
  for (int i = 0; i < kLayers; ++i) {
    const std::string fc = "fc" + std::to_string(i);
    ASSERT_FALSE(Layout(m, fc).empty()) << fc;
    const std::string source = i % 4 == 1 ? "shared" : "w" + std::to_string(i);
    EXPECT_EQ(Weight(m, fc)->GetName(), source + "/" + Layout(m, fc)) << fc;
  }
  EXPECT_EQ(Weight(m, "fc1"), Weight(m, "fc5"));
  for (int again = 0; again < 3; ++again) {
    auto other = Compile(make());
    ASSERT_TRUE(other.ok()) << other.status().message();
    EXPECT_EQ(names(*other), names(m));
  }
}

TEST_F(WeightPackingTest, ASavedModelKeepsItsPackedWeights) {
  auto compiled = Compile(ConvNet());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const auto want = RunOn(*compiled, {1, 16, 10, 10});
  auto bytes = compiled->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto loaded = CompiledModel::Deserialize(*bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(Layout(*loaded, "conv1"), Layout(*compiled, "conv1"));
  EXPECT_EQ(RunOn(std::move(loaded).value(), {1, 16, 10, 10}), want);
}

/// x [1, 32, 16, 16] -> conv1 (3x3, pad 1) -> relu -> conv2 (3x3, pad 1) -> y: blocked 3x3
/// stride-1 convolutions on a 16x16 map, which the layout planner gives Winograd's algorithm
/// where oneDNN has it (AVX-512).
ComputeGraphPtr WinogradNet() {
  ProtoGraph b("wino");
  const std::map<std::string, AttrValue> conv = {{"pads", Ints({1, 1, 1, 1})}};
  NodePtr x = b.Data("x", {1, 32, 16, 16});
  NodePtr w1 = b.Const<float>("w1", DT_FLOAT, {32, 32, 3, 3}, Random(size_t{32} * 32 * 9, 11));
  NodePtr w2 = b.Const<float>("w2", DT_FLOAT, {32, 32, 3, 3}, Random(size_t{32} * 32 * 9, 12));
  NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, conv);
  NodePtr relu = b.Op("Relu", "relu", {{conv1, 0}});
  NodePtr conv2 = b.Op("Conv2D", "conv2", {{relu, 0}, {w2, 0}}, conv);
  b.Output({{conv2, 0}});
  return b.graph();
}

/// x [1, k] -> fc (MatMulV2, Const [k, n] filled with `fill`, or random when fill is 0) -> y.
ComputeGraphPtr WideFc(int64_t k, int64_t n, float fill) {
  ProtoGraph b("wide");
  const auto count = static_cast<size_t>(k * n);
  NodePtr x = b.Data("x", {1, k});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {k, n},
                             fill == 0.0F ? Random(count, 21) : std::vector<float>(count, fill));
  NodePtr fc = b.Op("MatMulV2", "fc", {{x, 0}, {w, 0}});
  b.Output({{fc, 0}});
  return b.graph();
}

/// x [1, k, 4, 4] -> fc (a 1x1 Conv2D, Const [n, k, 1, 1] as WideFc fills it) -> out (1x1, to
/// 16 channels) -> y. `fc` is not the graph's output, so its activations may be blocked too.
ComputeGraphPtr WideConv(int64_t k, int64_t n, float fill) {
  ProtoGraph b("wide");
  const auto count = static_cast<size_t>(k * n);
  NodePtr x = b.Data("x", {1, k, 8, 8});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {n, k, 1, 1},
                             fill == 0.0F ? Random(count, 21) : std::vector<float>(count, fill));
  NodePtr w2 =
      b.Const<float>("w2", DT_FLOAT, {16, n, 1, 1}, Random(static_cast<size_t>(16 * n), 22));
  NodePtr fc = b.Op("Conv2D", "fc", {{x, 0}, {w, 0}});
  NodePtr out = b.Op("Conv2D", "out", {{fc, 0}, {w2, 0}});
  b.Output({{out, 0}});
  return b.graph();
}

// A large weight read by a matrix product or by a 1x1 convolution: the same packing, two
// layouts (a matrix product's is packed column blocks first, against its row-major source).
struct WideWeight {
  const char* name;
  ComputeGraphPtr (*make)(int64_t k, int64_t n, float fill);
  std::vector<int64_t> (*input)(int64_t k);
};

const WideWeight kWideWeights[] = {
    {"MatMul", WideFc,
     [](int64_t k) {
       return std::vector<int64_t>{1, k};
     }},
    {"Conv1x1", WideConv,
     [](int64_t k) {
       return std::vector<int64_t>{1, k, 8, 8};
     }},
};

/// oneDNN wants these weights in a layout of its own where it has AVX-512. On AVX2 its one-row
/// matrix product and these convolutions run on its gemm, which reads the weight as it is
/// (the planner's 16-channel blocks have no AVX2 convolution), so nothing is packed there.
bool Packs() { return testing::HostHasAvx512(); }

class WideWeightPackingTest : public WeightPackingTest,
                              public ::testing::WithParamInterface<WideWeight> {};

// A large weight is packed in slices (along oneDNN's outer blocks, or along the source's rows
// when those blocks would be short runs of it), each slice's source pages released as it goes;
// the numbers are the plain compile's, bit for bit.
TEST_P(WideWeightPackingTest, ALargeWeightPackedInSlicesGivesThePlainNumbers) {
  const WideWeight& wide = GetParam();
  CompiledModel m = ExpectSameAsPlain([&] { return wide.make(512, 4096, 0.0F); }, wide.input(512));
  ASSERT_NE(m.graph, nullptr);
  EXPECT_EQ(!Layout(m, "fc").empty(), Packs()) << Layout(m, "fc");
}

// While a 64 MiB weight is packed, the process grows by far less than the weight: the packed
// copy fills as the framework's copy is released.
TEST_P(WideWeightPackingTest, ALargeWeightIsNeverInMemoryTwiceWhilePacked) {
  const WideWeight& wide = GetParam();
  constexpr int64_t kSide = 4096;  // 64 MiB of float
  ComputeGraphPtr graph = wide.make(kSide, kSide, 0.25F);
  testing::ResetPeakResident();
  const int64_t before = testing::ProcStatusBytes("VmRSS");
  auto m = Compile(graph);
  ASSERT_TRUE(m.ok()) << m.status().message();
  const int64_t growth = testing::ProcStatusBytes("VmHWM") - before;
  EXPECT_EQ(!Layout(*m, "fc").empty(), Packs()) << Layout(*m, "fc");
  EXPECT_LT(growth, kSide * kSide * 4 / 2) << "the peak grew by " << growth << " bytes";
}

// A weight whose bytes a caller's tensor also holds is packed whole and left as it was.
TEST_P(WideWeightPackingTest, AWeightTheCallerAlsoHoldsIsLeftIntact) {
  const WideWeight& wide = GetParam();
  ComputeGraphPtr graph = wide.make(1024, 2048, 0.0F);
  auto held = OpDescUtils::GetConstValue(*graph->FindNode("w"));
  ASSERT_TRUE(held.ok()) << held.status().message();
  const GeTensor copy = held->Clone();
  auto m = Compile(graph);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(!Layout(*m, "fc").empty(), Packs()) << Layout(*m, "fc");
  ASSERT_EQ(held->GetSize(), copy.GetSize());
  EXPECT_EQ(std::memcmp(held->GetData().data(), copy.GetData().data(), copy.GetSize()), 0);
}

INSTANTIATE_TEST_SUITE_P(Weights, WideWeightPackingTest, ::testing::ValuesIn(kWideWeights),
                         [](const ::testing::TestParamInfo<WideWeight>& info) {
                           return std::string(info.param.name);
                         });

// A weight lying in a file mapping is released page by page as it is packed even while another
// tensor holds it (a shape plan cache's parsed graph, from which every plan is compiled): the
// peak grows by the packed copy, not by both, and the other holder still reads the file's bytes.
TEST_F(WeightPackingTest, AMappedWeightOthersHoldIsReleasedAsItIsPacked) {
  constexpr int64_t kRows = 4096, kCols = 2048;  // 32 MiB, read transposed
  const std::string path = ::testing::TempDir() + "/openge_mapped_weight.bin";
  {
    const std::vector<float> values = Random(static_cast<size_t>(kRows * kCols), 31);
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()),
              static_cast<std::streamsize>(values.size() * sizeof(float)));
  }
  auto file = MapFile(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file->size, static_cast<size_t>(kRows * kCols * 4));
  GeTensor held(GeTensorDesc(GeShape({kRows, kCols}), FORMAT_ND, DT_FLOAT));
  held.SetSharedData(ViewOrCopy(*file, file->data.get(), file->size), file->size,
                     ViewsInPlace(*file, file->data.get()));
  ASSERT_TRUE(held.IsFileMapped());

  ProtoGraph b("mapped");
  NodePtr x = b.Data("x", {4, kCols});
  NodePtr w = b.Const<float>("w", DT_FLOAT, {1}, {0.0F});  // given its value below
  ASSERT_TRUE(OpDescUtils::SetConstValue(w, held).ok());
  NodePtr fc = b.Op("MatMulV2", "fc", {{x, 0}, {w, 0}}, {{"transpose_x2", AttrValue(true)}});
  b.Output({{fc, 0}});
  testing::ResetPeakResident();
  const int64_t before = testing::ProcStatusBytes("VmRSS");
  auto m = Compile(b.graph());
  ASSERT_TRUE(m.ok()) << m.status().message();
  const int64_t growth = testing::ProcStatusBytes("VmHWM") - before;
  ASSERT_FALSE(Layout(*m, "fc").empty());  // oneDNN reads it untransposed, at least
  EXPECT_LT(growth, kRows * kCols * 4 * 3 / 2) << "the peak grew by " << growth << " bytes";
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes(file->size);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  EXPECT_EQ(std::memcmp(held.GetData().data(), bytes.data(), bytes.size()), 0);
  std::filesystem::remove(path);
}

// Two compiles of one file's weight (a shape plan cache's plans for two shapes) share its packed
// form while the first holds it: packed once, in memory once, the same numbers.
TEST_F(WeightPackingTest, AFileWeightPackedByAnotherCompileIsShared) {
  constexpr int64_t kRows = 256, kCols = 512;
  const std::string path = ::testing::TempDir() + "/openge_shared_packed.bin";
  const std::vector<float> values = Random(static_cast<size_t>(kRows * kCols), 33);
  {
    std::ofstream out(path, std::ios::binary);
    out.write("GE", 2);  // off a boundary: the weight is a copy that remembers its file bytes
    out.write(reinterpret_cast<const char*>(values.data()),
              static_cast<std::streamsize>(values.size() * sizeof(float)));
  }
  auto file = MapFile(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  auto make = [&](int64_t rows) {
    GeTensor value(GeTensorDesc(GeShape({kRows, kCols}), FORMAT_ND, DT_FLOAT));
    SetBytesFromFile(value, *file, file->data.get() + 2, values.size() * sizeof(float));
    EXPECT_NE(value.FileSource(), nullptr);
    ProtoGraph b("shared_file_weight");
    NodePtr x = b.Data("x", {rows, kCols});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {1}, {0.0F});
    EXPECT_TRUE(OpDescUtils::SetConstValue(w, value).ok());
    NodePtr fc = b.Op("MatMulV2", "fc", {{x, 0}, {w, 0}}, {{"transpose_x2", AttrValue(true)}});
    b.Output({{fc, 0}});
    return b.graph();
  };
  auto first = Compile(make(4));
  auto second = Compile(make(6));
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_TRUE(second.ok()) << second.status().message();
  ASSERT_FALSE(Layout(*first, "fc").empty());
  ASSERT_EQ(Layout(*first, "fc"), Layout(*second, "fc"));
  auto bytes_of = [](const NodePtr& node) {
    return OpDescUtils::GetConstValue(*node)->GetData().data();
  };
  EXPECT_EQ(bytes_of(Weight(*first, "fc")), bytes_of(Weight(*second, "fc")));
  // The shared packed weight gives what packing it again gives.
  auto again = Compile(make(6), {{"openge.cpuWeightLayout", "plain"}});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(RunOn(*second, {6, kCols}), RunOn(*again, {6, kCols}));
  std::filesystem::remove(path);
}

// A large weight lying off the alignment in a file is packed from the file, not copied first:
// one on its elements' alignment is read where it lies, one off it a slice at a time through a
// small aligned buffer. Either way the peak grows by the packed copy, not by two copies, and the
// numbers are the plain compile's.
TEST_F(WeightPackingTest, AnUnalignedFileWeightIsPackedFromTheFile) {
  constexpr int64_t kRows = 4096, kCols = 2048;  // 32 MiB, read transposed
  const std::vector<float> values = Random(static_cast<size_t>(kRows * kCols), 35);
  for (const size_t offset : {size_t{4}, size_t{1}}) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    const std::string path = ::testing::TempDir() + "/openge_unaligned_weight.bin";
    {
      std::ofstream out(path, std::ios::binary);
      out.write("GE-IR", static_cast<std::streamsize>(offset));
      out.write(reinterpret_cast<const char*>(values.data()),
                static_cast<std::streamsize>(values.size() * sizeof(float)));
    }
    auto file = MapFile(path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    auto make = [&] {
      GeTensor value(GeTensorDesc(GeShape({kRows, kCols}), FORMAT_ND, DT_FLOAT));
      SetBytesFromFile(value, *file, file->data.get() + offset, values.size() * sizeof(float));
      EXPECT_TRUE(value.IsDeferred());
      ProtoGraph b("unaligned_file_weight");
      NodePtr x = b.Data("x", {4, kCols});
      NodePtr w = b.Const<float>("w", DT_FLOAT, {1}, {0.0F});
      EXPECT_TRUE(OpDescUtils::SetConstValue(w, value).ok());
      NodePtr fc = b.Op("MatMulV2", "fc", {{x, 0}, {w, 0}}, {{"transpose_x2", AttrValue(true)}});
      b.Output({{fc, 0}});
      return b.graph();
    };
    ComputeGraphPtr graph = make();
    testing::ResetPeakResident();
    const int64_t before = testing::ProcStatusBytes("VmRSS");
    auto packed = Compile(graph);
    ASSERT_TRUE(packed.ok()) << packed.status().message();
    const int64_t growth = testing::ProcStatusBytes("VmHWM") - before;
    ASSERT_FALSE(Layout(*packed, "fc").empty());
    EXPECT_LT(growth, kRows * kCols * 4 * 3 / 2) << "the peak grew by " << growth << " bytes";
    auto plain = Compile(make(), {{"openge.cpuWeightLayout", "plain"}});
    ASSERT_TRUE(plain.ok()) << plain.status().message();
    EXPECT_EQ(RunOn(*packed, {4, kCols}), RunOn(*plain, {4, kCols}));
    std::filesystem::remove(path);
  }
}

// Weights off their elements' alignment in a file, packed slice by slice, hold the values an
// aligned copy of them packs into: slices of whole destination blocks (a last one short of a
// block: 1000 columns in blocks of 64, 72 channels in blocks of 16), many of them (a 4.5 MiB
// filter) or one, for matrix products and convolutions. The reference is the same graph with the
// weight in memory, packed when the model loads.
TEST_F(WeightPackingTest, WeightsOffTheirAlignmentArePackedSliceBySlice) {
  struct Case {
    std::string op;
    std::vector<int64_t> w, x;
    NodeAttrs attrs;
  };
  const std::vector<Case> cases = {
      {"MatMulV2", {1000, 1280}, {3, 1280}, {{"transpose_x2", AttrValue(true)}}},
      {"MatMulV2", {640, 1000}, {2, 640}, {}},
      {"Conv2D", {512, 256, 3, 3}, {1, 256, 6, 6}, {{"pads", Ints({1, 1, 1, 1})}}},
      {"Conv2D", {72, 250, 1, 1}, {1, 250, 5, 5}, {}},
  };
  const std::string path = ::testing::TempDir() + "/openge_staged_weights.bin";
  for (const Case& c : cases) {
    int64_t count = 1;
    std::string dims;
    for (int64_t d : c.w) {
      count *= d;
      dims += " " + std::to_string(d);
    }
    SCOPED_TRACE(c.op + dims);
    const std::vector<float> values = Random(static_cast<size_t>(count), 41);
    {
      std::ofstream out(path, std::ios::binary);
      out.write("GE-", 3);
      out.write(reinterpret_cast<const char*>(values.data()),
                static_cast<std::streamsize>(values.size() * sizeof(float)));
    }
    auto file = MapFile(path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    auto make = [&](bool from_file) {
      ProtoGraph b("staged_weight");
      NodePtr x = b.Data("x", c.x);
      NodePtr w = b.Const<float>("w", DT_FLOAT, c.w, values);
      if (from_file) {
        GeTensor value(GeTensorDesc(GeShape(c.w), FORMAT_ND, DT_FLOAT));
        SetBytesFromFile(value, *file, file->data.get() + 3, values.size() * sizeof(float));
        EXPECT_TRUE(value.IsDeferred());
        EXPECT_TRUE(OpDescUtils::SetConstValue(w, value).ok());
      }
      NodePtr y = b.Op(c.op, "y", {{x, 0}, {w, 0}}, c.attrs);
      b.Output({{y, 0}});
      return b.graph();
    };
    auto packed = Compile(make(true));
    auto reference = Compile(make(false), {{"openge.cpuWeightLayout", "plain"}});
    ASSERT_TRUE(packed.ok()) << packed.status().message();
    ASSERT_TRUE(reference.ok()) << reference.status().message();
    EXPECT_FALSE(Layout(*packed, "y").empty());
    const auto got = RunOn(*packed, c.x);
    ASSERT_FALSE(got.empty());
    EXPECT_EQ(got, RunOn(*reference, c.x));
  }
  std::filesystem::remove(path);
}

// A saved model whose weight is packed only when it loads (compiled with the framework's layouts,
// or on a machine that wanted another) maps the weight from the file; the kernel lets the file's
// pages go as it packs them, so after the load the process holds the packed weight alone, and
// runs give the numbers of the model loaded from memory.
TEST_F(WeightPackingTest, AWeightPackedWhenASavedModelLoadsLeavesTheFilesPages) {
  constexpr int64_t kRows = 2048, kCols = 4096;  // 32 MiB
  auto make = [] {
    ProtoGraph b("packed_at_load");
    NodePtr x = b.Data("x", {4, kRows});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {kRows, kCols},
                               Random(static_cast<size_t>(kRows * kCols), 43));
    NodePtr fc = b.Op("MatMulV2", "fc", {{x, 0}, {w, 0}});
    b.Output({{fc, 0}});
    return b.graph();
  };
  auto plain = Compile(make(), {{"openge.cpuWeightLayout", "plain"}});
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  const std::string path = ::testing::TempDir() + "/openge_packed_at_load.om";
  ASSERT_TRUE(plain->SaveToFile(path).ok());
  const auto want = RunOn(*plain, {4, kRows});
  plain = ParamInvalid("released");  // the compiled graph's own copy of the weight goes
  RuntimeOptions options;
  options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
  const int64_t before = testing::ProcStatusBytes("VmRSS");
  auto model = LoadedModel::LoadFromFile(path, options);
  ASSERT_TRUE(model.ok()) << model.status().message();
  const int64_t growth = testing::ProcStatusBytes("VmRSS") - before;
  EXPECT_LT(growth, kRows * kCols * 4 * 3 / 2) << "loading grew the process by " << growth;
  auto out = (*model)->Run(
      {testing::MakeTensor(DT_FLOAT, {4, kRows}, Random(static_cast<size_t>(4 * kRows), 9))});
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(want.size(), 1U);
  EXPECT_EQ(testing::TensorValues<float>(out->at(0)), want[0]);
  model = ParamInvalid("unloaded");
  std::filesystem::remove(path);
}

// A table only gathers read is handed to them where it lies in the model file: loading and
// running copy none of it (the process grows by far less than the table), the rows are the
// file's. A table something else reads as well (scaled) is read aligned, as every other weight.
TEST_F(WeightPackingTest, AGatheredTableIsReadWhereItLies) {
  constexpr int64_t kRows = 16384, kCols = 1024;  // 64 MiB
  const std::vector<float> values = Random(static_cast<size_t>(kRows * kCols), 37);
  const std::string path = ::testing::TempDir() + "/openge_gathered_table.bin";
  {
    std::ofstream out(path, std::ios::binary);
    out.write("GE", 2);  // the table lies off its elements' alignment
    out.write(reinterpret_cast<const char*>(values.data()),
              static_cast<std::streamsize>(values.size() * sizeof(float)));
  }
  auto file = MapFile(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  const std::vector<int64_t> ids = {3, kRows - 1, 0, 12345};
  for (const bool also_scaled : {false, true}) {
    SCOPED_TRACE(also_scaled ? "also scaled" : "gathered only");
    GeTensor table(GeTensorDesc(GeShape({kRows, kCols}), FORMAT_ND, DT_FLOAT));
    SetBytesFromFile(table, *file, file->data.get() + 2, values.size() * sizeof(float));
    ASSERT_TRUE(table.IsDeferred());
    ProtoGraph b("gathered_table");
    NodePtr x = b.Data("ids", {static_cast<int64_t>(ids.size())}, DT_INT64);
    NodePtr w = b.Const<float>("table", DT_FLOAT, {1}, {0.0F});
    ASSERT_TRUE(OpDescUtils::SetConstValue(w, table).ok());
    NodePtr rows = b.Op("GatherV2", "rows", {{w, 0}, {x, 0}}, {{"axis", AttrValue(int64_t{0})}});
    if (also_scaled) {
      NodePtr scale = b.Data("scale", {1, 1});
      NodePtr scaled = b.Op("Mul", "scaled", {{w, 0}, {scale, 0}});
      b.Output({{rows, 0}, {scaled, 0}});
    } else {
      b.Output({{rows, 0}});
    }
    auto compiled = Compile(b.graph());
    ASSERT_TRUE(compiled.ok()) << compiled.status().message();
    bool marked = false;
    AttrUtils::GetBool(compiled->graph->FindNode("table")->GetOpDesc(), "_weight_any_alignment",
                       marked);
    EXPECT_EQ(marked, !also_scaled);
    testing::ResetPeakResident();
    const int64_t before = testing::ProcStatusBytes("VmRSS");
    GeTensor in(GeTensorDesc(GeShape({static_cast<int64_t>(ids.size())}), FORMAT_ND, DT_INT64),
                reinterpret_cast<const uint8_t*>(ids.data()), ids.size() * sizeof(int64_t));
    std::vector<GeTensor> inputs = {in};
    const float one = 1.0F;
    if (also_scaled) {
      inputs.emplace_back(GeTensorDesc(GeShape({1, 1}), FORMAT_ND, DT_FLOAT),
                          reinterpret_cast<const uint8_t*>(&one), sizeof(one));
    }
    const std::vector<std::vector<float>> out =
        fusion_test::Run(std::move(compiled).value(), inputs);
    const int64_t growth = testing::ProcStatusBytes("VmHWM") - before;
    ASSERT_FALSE(out.empty());
    ASSERT_EQ(out[0].size(), ids.size() * kCols);
    for (size_t r = 0; r < ids.size(); ++r) {
      const auto row = values.begin() + ids[r] * kCols;
      const auto got = out[0].begin() + static_cast<int64_t>(r) * kCols;
      EXPECT_EQ(std::vector<float>(got, got + kCols), std::vector<float>(row, row + kCols))
          << "row " << ids[r];
    }
    if (!also_scaled) {
      EXPECT_LT(growth, kRows * kCols * 4 / 4) << "the peak grew by " << growth << " bytes";
    }
  }
  std::filesystem::remove(path);
}

// The compile report says how long the packing took: a note per engine optimizer on the pass
// that runs them.
TEST_F(WeightPackingTest, TheReportTimesThePacking) {
  auto m = Compile(ConvNet());
  ASSERT_TRUE(m.ok()) << m.status().message();
  const PassReport* pass = m->report.FindPass("place", "EngineOptimizeWholeGraph");
  ASSERT_NE(pass, nullptr);
  const std::string prefix = "DNN_VM_HOST_CPU_WEIGHTS (DNN_VM_HOST_CPU): ";
  int found = 0;
  for (const std::string& note : pass->notes) {
    if (note.rfind(prefix, 0) != 0) continue;
    ++found;
    EXPECT_EQ(note.substr(note.size() - 3), " ms") << note;
    EXPECT_GE(std::stod(note.substr(prefix.size())), 0.0) << note;
  }
  EXPECT_EQ(found, 1);
}

// A Winograd convolution's filter is stored as the framework gave it: oneDNN's Winograd layout
// depends on the threads it sees when the primitive is made, which the compile cannot know for
// the process that loads the model. The kernel transforms it at load, and the numbers are the
// plain compile's, from memory and from a saved model alike.
TEST_F(WeightPackingTest, WinogradFiltersAreTransformedWhenTheModelLoads) {
  CompiledModel m = ExpectSameAsPlain(WinogradNet, {1, 32, 16, 16});
  ASSERT_NE(m.graph, nullptr);
  for (const char* conv : {"conv1", "conv2"}) {
    SCOPED_TRACE(conv);
    const OpDescPtr op = m.graph->FindNode(conv)->GetOpDesc();
    std::string algorithm;
    AttrUtils::GetStr(op, "_conv_algorithm", algorithm);
    if (algorithm != "winograd") continue;  // oneDNN has Winograd on AVX-512 only
    EXPECT_TRUE(Layout(m, conv).empty()) << Layout(m, conv);
    EXPECT_EQ(op->GetInputDesc(1).GetShape().GetDims(), (std::vector<int64_t>{32, 32, 3, 3}));
  }
  const auto want = RunOn(m, {1, 32, 16, 16});
  auto bytes = m.Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  auto loaded = CompiledModel::Deserialize(*bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_EQ(RunOn(std::move(loaded).value(), {1, 32, 16, 16}), want);
}

// The filters transformed when the model loads are held by their kernels beside the model's
// weights, and the model says how many bytes (gec run shows them in the parts of the peak): at
// least the transform's tiles (4x4 or 6x6 per 3x3 filter) of every Winograd filter, none when
// the convolutions are direct.
TEST_F(WeightPackingTest, FiltersTransformedAtLoadAreCountedBesideTheWeights) {
  auto winograd = Compile(WinogradNet());
  auto direct = Compile(WinogradNet(), {{"openge.cpuConvAlgorithm", "direct"}});
  ASSERT_TRUE(winograd.ok()) << winograd.status().message();
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  int64_t transformed = 0;  // the least the transformed filters take
  for (const char* conv : {"conv1", "conv2"}) {
    std::string algorithm;
    AttrUtils::GetStr(winograd->graph->FindNode(conv)->GetOpDesc(), "_conv_algorithm", algorithm);
    if (algorithm == "winograd") transformed += int64_t{32} * 32 * 16 * 4;
  }
  EXPECT_EQ(transformed > 0, testing::HostHasAvx512());  // oneDNN has Winograd on AVX-512 only
  for (CompiledModel* m : {&*winograd, &*direct}) {
    auto model = LoadedModel::Load(*m, testing::EngineOptions());
    ASSERT_TRUE(model.ok()) << model.status().message();
    if (m == &*direct || transformed == 0) {
      EXPECT_EQ((*model)->loaded_weight_bytes(), 0);
    } else {
      EXPECT_GE((*model)->loaded_weight_bytes(), transformed);
    }
  }
}

// oneDNN blocks some Winograd weights (F(2x2, 3x3) on ResNet's 14x14 maps with 256 channels)
// by the threads the primitive is made for. A compiled model loads and runs with one thread and
// with every core all the same, giving the direct convolution's numbers: Winograd is chosen only
// where its layout is the same for both.
TEST_F(WeightPackingTest, AWinogradModelLoadsWithAnyThreadCount) {
  auto make = [] {
    ProtoGraph b("wino_threads");
    const std::map<std::string, AttrValue> conv = {{"pads", Ints({1, 1, 1, 1})}};
    NodePtr x = b.Data("x", {1, 256, 14, 14});
    NodePtr w1 =
        b.Const<float>("w1", DT_FLOAT, {256, 256, 3, 3}, Random(size_t{256} * 256 * 9, 13));
    NodePtr w2 =
        b.Const<float>("w2", DT_FLOAT, {256, 256, 3, 3}, Random(size_t{256} * 256 * 9, 14));
    NodePtr conv1 = b.Op("Conv2D", "conv1", {{x, 0}, {w1, 0}}, conv);
    NodePtr relu = b.Op("Relu", "relu", {{conv1, 0}});
    NodePtr conv2 = b.Op("Conv2D", "conv2", {{relu, 0}, {w2, 0}}, conv);
    b.Output({{conv2, 0}});
    return b.graph();
  };
  auto compiled = Compile(make());
  auto direct = Compile(make(), {{"openge.cpuConvAlgorithm", "direct"}});
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  // Winograd only where oneDNN lays its weights out the same for one thread and every core
  // (whatever threads the compile planned for): elsewhere a model loading with the other count
  // would transform its filters into another layout at every load.
  std::string algorithm;
  AttrUtils::GetStr(compiled->graph->FindNode("conv1")->GetOpDesc(), "_conv_algorithm", algorithm);
  if (algorithm == "winograd") {
    using dnnl::memory;
    const memory::desc act({1, 256, 14, 14}, memory::data_type::f32, memory::format_tag::nChw16c);
    const memory::desc any({256, 256, 3, 3}, memory::data_type::f32, memory::format_tag::any);
    auto layout_on = [&](int threads) {
      const int saved = omp_get_max_threads();
      omp_set_num_threads(threads);
      const dnnl::convolution_forward::primitive_desc pd({dnnl::prop_kind::forward_inference,
                                                          dnnl::algorithm::convolution_winograd,
                                                          act,
                                                          any,
                                                          act,
                                                          {1, 1},
                                                          {1, 1},
                                                          {1, 1}},
                                                         dnnl::engine(dnnl::engine::kind::cpu, 0));
      omp_set_num_threads(saved);
      return pd.weights_desc();
    };
    EXPECT_TRUE(layout_on(1) == layout_on(omp_get_num_procs()));
  }
  const std::vector<int64_t> dims = {1, 256, 14, 14};
  const std::vector<GeTensor> inputs = {
      testing::MakeTensor(DT_FLOAT, dims, Random(size_t{256} * 14 * 14, 9))};
  const std::vector<float> want = fusion_test::Run(*direct, inputs).at(0);
  for (const int threads : {1, 0}) {
    SCOPED_TRACE(threads == 0 ? "every core" : "one thread");
    RuntimeOptions options;
    options.options = {{"ge.enginePluginPath", GE_TEST_ENGINE_DIR}};
    options.threads = threads;
    auto model = LoadedModel::Load(*compiled, options);
    ASSERT_TRUE(model.ok()) << model.status().message();
    auto out = (*model)->Run(inputs);
    ASSERT_TRUE(out.ok()) << out.status().message();
    const std::vector<float> got = testing::TensorValues<float>(out->at(0));
    ASSERT_EQ(got.size(), want.size());
    float largest = 0;
    for (float v : want) largest = std::max(largest, std::abs(v));
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_NEAR(got[i], want[i], 1e-4F * largest) << "element " << i;
    }
  }
}

// Out of a Winograd layout oneDNN has no reorder: a filter stored in one the convolution does
// not want (a model saved by another build or for another CPU) fails the load with both layouts
// named and what to do.
TEST_F(WeightPackingTest, AWinogradLayoutTheConvolutionDoesNotWantFailsTheLoad) {
  auto compiled = Compile(WinogradNet());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  const OpDescPtr conv1 = compiled->graph->FindNode("conv1")->GetOpDesc();
  std::string algorithm;
  AttrUtils::GetStr(conv1, "_conv_algorithm", algorithm);
  // oneDNN has Winograd on AVX-512 only.
  ASSERT_EQ(algorithm == "winograd", testing::HostHasAvx512()) << algorithm;
  if (!testing::HostHasAvx512()) return;
  const std::string other = "wino-f4-r3-a6-ic32-oc32-b16x16-b1x1-s3f800000-z1";
  AttrUtils::SetStr(conv1, kLayoutAttr, other);
  const std::string message = LoadError(std::move(compiled).value());
  EXPECT_NE(message.find("'conv1'"), std::string::npos) << message;
  EXPECT_NE(message.find("Winograd layout '" + other + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("wants 'wino-"), std::string::npos) << message;
  EXPECT_NE(message.find("compile the model again"), std::string::npos) << message;
}

// A stored weight the kernel cannot read fails the load, naming the node and the cause.
TEST_F(WeightPackingTest, ALayoutTheKernelCannotReadFailsTheLoadNamingTheNode) {
  auto compiled = Compile(ConvNet());
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  AttrUtils::SetStr(compiled->graph->FindNode("conv1")->GetOpDesc(), kLayoutAttr, "nonsense");
  const std::string message = LoadError(std::move(compiled).value());
  EXPECT_NE(message.find("'conv1'"), std::string::npos) << message;
  EXPECT_NE(message.find("'nonsense' is not a oneDNN layout"), std::string::npos) << message;
}

// Shapes known only at run time: kernels are prepared per shape, the weights stay as they are.
TEST_F(WeightPackingTest, RunTimeShapesKeepTheFrameworksLayout) {
  auto make = [] {
    ProtoGraph b("dynamic");
    NodePtr x = b.Data("x", {-1, 16, 8, 8});
    NodePtr w = b.Const<float>("w", DT_FLOAT, {16, 16, 3, 3}, Random(size_t{16} * 16 * 9, 6));
    NodePtr c = b.Op("Conv2D", "c", {{x, 0}, {w, 0}}, {{"pads", Ints({1, 1, 1, 1})}});
    b.Output({{c, 0}});
    return b.graph();
  };
  auto m = Compile(make());
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_TRUE(Layout(*m, "c").empty());
  EXPECT_EQ(Weight(*m, "c")->GetName(), "w");
  EXPECT_EQ(RunOn(*m, {2, 16, 8, 8}).size(), 1U);
}

TEST_F(WeightPackingTest, TheOptionIsValidated) {
  auto bad = Compiler::Create(testing::TestOptions({{"openge.cpuWeightLayout", "blocked"}}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("expected 'packed' or 'plain'"), std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace ge
