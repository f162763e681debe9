// ModelSerialize: the ModelDef envelope, binary and text encodings, protobuf's limits and files.
#include "ge/graph/serialize/model_serialize.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/text_format.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>

#include "graph_serialize.h"
#include "serialize_internal.h"

namespace ge {

namespace {

using serialize::LoadContext;
using serialize::SaveContext;

/// Protobuf's own nesting limit while parsing. Each level of attribute nesting that
/// kMaxNestingDepth counts takes at most five message levels, plus four for the envelope.
constexpr int kProtobufRecursionLimit = ModelSerialize::kMaxNestingDepth * 5 + 8;

std::string TooBig(size_t bytes) {
  return std::to_string(bytes) + " bytes, over protobuf's limit of " + std::to_string(INT_MAX) +
         " bytes (2 GB) for one message; keep large weights out of the graph (e.g. in "
         "FileConstant files)";
}

/// Collects the text parser's messages instead of letting protobuf log them.
class TextErrors final : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string& message) override {
    if (!text_.empty()) return;  // the first error is the one to fix
    text_ = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) + ": " +
            serialize::Sanitize(message);
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
  [[nodiscard]] const std::string& text() const { return text_; }

 private:
  std::string text_;
};

/// The binary parser refuses `string` fields that are not UTF-8, the text parser does not: check
/// every string field of a message parsed from text, so both formats accept the same models.
Status CheckUtf8Fields(const google::protobuf::Message& message) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  std::string scratch;
  for (const FieldDescriptor* field : fields) {
    const int count = field->is_repeated() ? reflection->FieldSize(message, field) : 1;
    for (int i = 0; i < count; ++i) {
      if (field->type() == FieldDescriptor::TYPE_STRING) {
        const std::string& text =
            field->is_repeated()
                ? reflection->GetRepeatedStringReference(message, field, i, &scratch)
                : reflection->GetStringReference(message, field, &scratch);
        GE_RETURN_IF_ERROR(serialize::CheckUtf8(text, field->full_name()));
      } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
        GE_RETURN_IF_ERROR(CheckUtf8Fields(field->is_repeated()
                                               ? reflection->GetRepeatedMessage(message, field, i)
                                               : reflection->GetMessage(message, field)));
      }
    }
  }
  return Status::Ok();
}

/// A binary ModelDef of `size` bytes from `input`.
Status ParseBinary(google::protobuf::io::CodedInputStream& input, size_t size,
                   proto::ModelDef& model) {
  google::protobuf::LogSilencer silence;
  input.SetRecursionLimit(kProtobufRecursionLimit);
  if (!model.ParseFromCodedStream(&input) || !input.ConsumedEntireMessage()) {
    return ParamInvalid("the " + std::to_string(size) +
                        " bytes are not a binary ModelDef: truncated or corrupt protobuf, a string "
                        "field that is not UTF-8, or messages nested more than " +
                        std::to_string(kProtobufRecursionLimit) + " deep");
  }
  return Status::Ok();
}

Status Parse(std::string_view data, SerializeFormat format, proto::ModelDef& model) {
  if (data.size() > static_cast<size_t>(INT_MAX)) {
    return ParamInvalid("the model is " + TooBig(data.size()));
  }
  // Problems are reported in the Status; keep protobuf from logging them to stderr as well.
  google::protobuf::LogSilencer silence;
  if (format == SerializeFormat::kText) {
    google::protobuf::TextFormat::Parser parser;
    TextErrors errors;
    parser.RecordErrorsTo(&errors);
    parser.SetRecursionLimit(kProtobufRecursionLimit);
    google::protobuf::io::ArrayInputStream stream(data.data(), static_cast<int>(data.size()));
    if (!parser.Parse(&stream, &model)) {
      return ParamInvalid("the text is not a ModelDef in protobuf text format: " +
                          (errors.text().empty() ? std::string("parse error") : errors.text()));
    }
    return CheckUtf8Fields(model).Prefix("the text is not a valid ModelDef");
  }
  google::protobuf::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(data.data()),
                                               static_cast<int>(data.size()));
  return ParseBinary(input, data.size(), model);
}

/// The model's graphs; graph[0] is the main graph, the others its subgraphs.
Result<ComputeGraphPtr> GraphOf(proto::ModelDef& model) {
  if (model.graph_size() == 0) {
    return ParamInvalid("model " + serialize::Quote(model.name()) +
                        ", graph: the model holds no graph (graph[0] is the main graph)");
  }
  std::vector<proto::GraphDef*> defs;
  defs.reserve(static_cast<size_t>(model.graph_size()));
  for (auto& def : *model.mutable_graph()) defs.push_back(&def);
  LoadContext ctx;
  return serialize::LoadGraphTree(defs, ctx);
}

Result<std::string> Encode(const proto::ModelDef& model, SerializeFormat format) {
  const size_t size = model.ByteSizeLong();
  if (size > static_cast<size_t>(INT_MAX)) {
    return ParamInvalid("model " + serialize::Quote(model.name()) + " would be " + TooBig(size));
  }
  std::string out;
  if (format == SerializeFormat::kText) {
    google::protobuf::TextFormat::Printer printer;
    if (!printer.PrintToString(model, &out)) {
      return InternalError("protobuf could not print model " + serialize::Quote(model.name()));
    }
    return out;
  }
  out.resize(size);
  google::protobuf::io::ArrayOutputStream array(out.data(), static_cast<int>(size));
  google::protobuf::io::CodedOutputStream coded(&array);
  coded.SetSerializationDeterministic(true);  // maps in key order: same graph, same bytes
  model.SerializeWithCachedSizes(&coded);
  if (coded.HadError() || static_cast<size_t>(coded.ByteCount()) != size) {
    return InternalError("protobuf could not serialize model " + serialize::Quote(model.name()));
  }
  return out;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

Result<std::string> ModelSerialize::Serialize(const ComputeGraph& graph, SerializeFormat format,
                                              const SerializeOptions& options) {
  return CatchExceptions("ModelSerialize::Serialize", [&]() -> Result<std::string> {
    // One arena for the whole message tree: far fewer allocations than message by message.
    google::protobuf::Arena arena;
    auto* model = google::protobuf::Arena::CreateMessage<proto::ModelDef>(&arena);
    GE_RETURN_IF_ERROR(serialize::CheckUtf8(graph.GetName(), "graph name"));
    model->set_name(graph.GetName());
    model->set_version(kGeIrVersion);
    SaveContext ctx{options};
    GE_RETURN_IF_ERROR(serialize::SaveGraphTree(
        graph, [model] { return model->add_graph(); }, ctx));
    return Encode(*model, format);
  });
}

Result<ComputeGraphPtr> ModelSerialize::Deserialize(std::string_view data, SerializeFormat format) {
  return CatchExceptions("ModelSerialize::Deserialize", [&]() -> Result<ComputeGraphPtr> {
    google::protobuf::Arena arena;
    auto* model = google::protobuf::Arena::CreateMessage<proto::ModelDef>(&arena);
    GE_RETURN_IF_ERROR(Parse(data, format, *model));
    return GraphOf(*model);
  });
}

SerializeFormat ModelSerialize::FormatForPath(std::string_view path) {
  for (std::string_view suffix : {".pbtxt", ".txt", ".prototxt"}) {
    if (EndsWith(path, suffix)) return SerializeFormat::kText;
  }
  return SerializeFormat::kBinary;
}

Status ModelSerialize::SaveToFile(const ComputeGraph& graph, const std::string& path,
                                  SerializeFormat format, const SerializeOptions& options) {
  return CatchExceptions("ModelSerialize::SaveToFile", [&]() -> Status {
    Result<std::string> bytes = Serialize(graph, format, options);
    if (!bytes.ok()) return Status(bytes.status()).Prefix("save " + serialize::Quote(path));
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (file) file.write(bytes->data(), static_cast<std::streamsize>(bytes->size()));
    if (file) file.close();
    if (!file) {
      return Failed("save " + serialize::Quote(path) + ": cannot write the file (" +
                    std::strerror(errno) + ")");
    }
    return Status::Ok();
  });
}

Result<ComputeGraphPtr> ModelSerialize::LoadFromFile(const std::string& path) {
  return LoadFromFile(path, FormatForPath(path));
}

Result<ComputeGraphPtr> ModelSerialize::LoadFromFile(const std::string& path,
                                                     SerializeFormat format) {
  return CatchExceptions("ModelSerialize::LoadFromFile", [&]() -> Result<ComputeGraphPtr> {
    const std::string where = "load " + serialize::Quote(path);
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) return ParamInvalid(where + ": cannot open the file (" + std::strerror(errno) + ")");
    const std::streamoff size = file.tellg();
    if (size < 0) return ParamInvalid(where + ": cannot read the file size");
    if (static_cast<uint64_t>(size) > static_cast<uint64_t>(INT_MAX)) {
      return ParamInvalid(where + ": the file is " + TooBig(static_cast<size_t>(size)));
    }
    Result<ComputeGraphPtr> graph = ParamInvalid("");
    if (format == SerializeFormat::kBinary) {
      // Parsed from the file as it is read: the weights are in memory once (in the messages, then
      // moved into the tensors), not also as the file's bytes.
      file.seekg(0);
      google::protobuf::io::IstreamInputStream stream(&file);
      google::protobuf::io::CodedInputStream input(&stream);
      google::protobuf::Arena arena;
      auto* model = google::protobuf::Arena::CreateMessage<proto::ModelDef>(&arena);
      Status parsed = ParseBinary(input, static_cast<size_t>(size), *model);
      graph = parsed.ok() ? GraphOf(*model) : Result<ComputeGraphPtr>(std::move(parsed));
    } else {
      std::string data(static_cast<size_t>(size), '\0');
      file.seekg(0);
      if (!file.read(data.data(), size)) return ParamInvalid(where + ": cannot read the file");
      graph = Deserialize(data, SerializeFormat::kText);
    }
    if (!graph.ok()) return Status(graph.status()).Prefix(where);
    return graph;
  });
}

}  // namespace ge
