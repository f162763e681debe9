// GeTensorDesc <-> TensorDescriptor and GeTensor <-> TensorDef.
//
// Origin information travels as GE's desc attrs (origin_format, origin_shape, origin_data_type,
// origin_shape_initialized); the C0 part of a packed format, which format names do not carry,
// as the reserved ints _c0_format / _origin_c0_format (only when set).
#include "tensor_serialize.h"

#include <limits>
#include <memory>

#include "attr_serialize.h"
#include "reserved_attrs.h"

namespace ge::serialize {

namespace {

/// The name of `format` and its C0 part; an error when the value has bits no name can carry.
Status FormatToText(Format format, std::string& name, int64_t& c0, const char* field) {
  const auto value = static_cast<int32_t>(format);
  const int32_t primary = TypeUtils::GetPrimaryFormat(value);
  const int32_t packed = TypeUtils::GetFormatFromSubAndC0(primary, TypeUtils::GetSubFormat(value),
                                                          TypeUtils::GetC0Format(value));
  if (primary > FORMAT_END || packed != value) {
    return ParamInvalid(std::string(field) + ": format value " + std::to_string(value) +
                        " has no serialized name (primary format " + std::to_string(primary) +
                        "); set a ge::Format");
  }
  name = TypeUtils::FormatToSerialString(format);
  c0 = TypeUtils::GetC0Format(value);
  return Status::Ok();
}

Status TextToFormat(const std::string& text, std::optional<int64_t> c0, Format& out,
                    const char* field) {
  Format format = FORMAT_ND;
  if (!text.empty() && !TypeUtils::TryParseFormat(text, &format)) {
    return ParamInvalid(std::string(field) + ": " + Quote(text) +
                        " is not a format name (NCHW, ND, FRACTAL_Z:16, ...)");
  }
  if (c0.has_value()) {
    if (*c0 < 1 || *c0 > 15) {
      return ParamInvalid(std::string(field) + ": C0 format " + std::to_string(*c0) +
                          " is out of range 1..15");
    }
    format = static_cast<Format>(TypeUtils::GetFormatFromC0(format, static_cast<int32_t>(*c0)));
  }
  out = format;
  return Status::Ok();
}

Status CheckDescDataType(DataType dtype, const char* field) {
  if (IsSerializableDataType(dtype)) return Status::Ok();
  return ParamInvalid(std::string(field) + ": " + std::to_string(static_cast<int>(dtype)) +
                      " is not a ge::DataType");
}

Result<uint32_t> ToUint32(int64_t value, const char* field) {
  if (value < 0 || value > std::numeric_limits<uint32_t>::max()) {
    return ParamInvalid(std::string(field) + ": " + std::to_string(value) +
                        " is out of range for uint32");
  }
  return static_cast<uint32_t>(value);
}

Status LoadOrigin(const ReservedView& reserved, GeTensorDesc& out) {
  GE_ASSIGN_OR_RETURN(std::optional<std::string> format, reserved.String(kAttrOriginFormat));
  GE_ASSIGN_OR_RETURN(std::optional<int64_t> c0, reserved.Int(kAttrOriginC0Format));
  if (format.has_value() || c0.has_value()) {
    Format origin = FORMAT_ND;
    GE_RETURN_IF_ERROR(TextToFormat(format.value_or(""), c0, origin, "attr 'origin_format'"));
    out.SetOriginFormat(origin);
  }
  GE_ASSIGN_OR_RETURN(std::optional<std::string> dtype, reserved.String(kAttrOriginDataType));
  if (dtype.has_value()) {
    DataType origin = DT_UNDEFINED;
    if (!TypeUtils::TryParseDataType(*dtype, &origin)) {
      return ParamInvalid("attr 'origin_data_type': " + Quote(*dtype) +
                          " is not a data type name (DT_FLOAT, DT_INT32, ...)");
    }
    out.SetOriginDataType(origin);
  }
  GE_ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> shape,
                      reserved.ListInt(kAttrOriginShape));
  GE_ASSIGN_OR_RETURN(std::optional<bool> initialized, reserved.Bool(kAttrOriginShapeInitialized));
  // An origin shape counts as set unless the file says it is not.
  if (initialized.value_or(shape.has_value())) {
    out.SetOriginShape(GeShape(shape.value_or(std::vector<int64_t>())));
  }
  return Status::Ok();
}

}  // namespace

Status SaveTensorDesc(const GeTensorDesc& desc, proto::TensorDescriptor& out, SaveContext& ctx) {
  GE_RETURN_IF_ERROR(CheckDescDataType(desc.GetDataType(), "dtype"));
  GE_RETURN_IF_ERROR(CheckDescDataType(desc.GetOriginDataType(), "origin data type"));
  std::string layout;
  std::string origin_layout;
  int64_t c0 = 0;
  int64_t origin_c0 = 0;
  GE_RETURN_IF_ERROR(FormatToText(desc.GetFormat(), layout, c0, "layout"));
  GE_RETURN_IF_ERROR(
      FormatToText(desc.GetOriginFormat(), origin_layout, origin_c0, "origin format"));
  if (desc.GetDeviceType() != NPU && desc.GetDeviceType() != CPU) {
    return ParamInvalid("device_type " + std::to_string(static_cast<int>(desc.GetDeviceType())) +
                        " is neither NPU nor CPU");
  }

  GE_RETURN_IF_ERROR(CheckUtf8(desc.GetName(), "name"));
  GE_RETURN_IF_ERROR(CheckUtf8(desc.GetCmpsTab(), "cmps_tab"));
  out.set_name(desc.GetName());
  out.set_dtype(static_cast<proto::DataType>(TypeUtils::DataTypeToProto(desc.GetDataType())));
  const auto& dims = desc.GetShape().GetDims();
  out.mutable_shape()->mutable_dim()->Add(dims.begin(), dims.end());
  out.set_layout(layout);
  out.set_has_out_attr(true);
  out.set_size(desc.GetSize());
  out.set_weight_size(desc.GetWeightSize());
  out.set_reuse_input(desc.GetReuseInput());
  out.set_output_tensor(desc.GetOutputTensor());
  out.set_device_type(desc.GetDeviceType() == CPU ? "CPU" : "NPU");
  out.set_input_tensor(desc.GetInputTensor());
  out.set_real_dim_cnt(desc.GetRealDimCnt());
  out.set_reuse_input_index(desc.GetReuseInputIndex());
  out.set_data_offset(desc.GetDataOffset());
  out.set_cmps_size(desc.GetCmpsSize());
  out.set_cmps_tab(desc.GetCmpsTab());
  out.set_cmps_tab_offset(desc.GetCmpsTabOffset());

  AttrMap& attrs = *out.mutable_attr();
  if (ctx.options.with_attributes) {
    GE_RETURN_IF_ERROR(SaveAttrs(desc.GetAttrMap(), attrs, HolderKind::kTensorDesc, ctx));
  }
  // Origin values equal to a default-constructed desc's (ND, DT_UNDEFINED) are left out: a
  // reader without them gets those defaults back.
  if (desc.GetOriginFormat() != FORMAT_ND) PutString(attrs, kAttrOriginFormat, origin_layout);
  if (desc.GetOriginDataType() != DT_UNDEFINED) {
    PutString(attrs, kAttrOriginDataType,
              TypeUtils::DataTypeToSerialString(desc.GetOriginDataType()));
  }
  if (desc.IsOriginShapeInitialized()) {
    PutListInt(attrs, kAttrOriginShape, desc.GetOriginShape().GetDims());
    PutBool(attrs, kAttrOriginShapeInitialized, true);
  }
  if (c0 != 0) PutInt(attrs, kAttrC0Format, c0);
  if (origin_c0 != 0) PutInt(attrs, kAttrOriginC0Format, origin_c0);
  return Status::Ok();
}

Status LoadTensorDesc(proto::TensorDescriptor& in, GeTensorDesc& out, LoadContext& ctx) {
  DataType dtype = DT_UNDEFINED;
  if (!TypeUtils::TryDataTypeFromProto(in.dtype(), &dtype)) {
    return ParamInvalid("dtype: " + std::to_string(in.dtype()) +
                        " is not a ge_ir.proto DataType number (0..41)");
  }
  out.SetDataType(dtype);
  AttrMap& attrs = *in.mutable_attr();
  const ReservedView reserved(attrs, HolderKind::kTensorDesc);
  GE_ASSIGN_OR_RETURN(std::optional<int64_t> c0, reserved.Int(kAttrC0Format));
  Format format = FORMAT_ND;
  GE_RETURN_IF_ERROR(TextToFormat(in.layout(), c0, format, "layout"));
  out.SetFormat(format);
  const auto& dims = in.shape().dim();
  out.SetShape(GeShape(std::vector<int64_t>(dims.begin(), dims.end())));
  out.SetName(std::move(*in.mutable_name()));

  out.SetSize(in.size());
  out.SetWeightSize(in.weight_size());
  out.SetReuseInput(in.reuse_input());
  out.SetOutputTensor(in.output_tensor());
  out.SetInputTensor(in.input_tensor());
  if (in.device_type() == "CPU") {
    out.SetDeviceType(CPU);
  } else if (in.device_type().empty() || in.device_type() == "NPU") {
    out.SetDeviceType(NPU);
  } else {
    return ParamInvalid("device_type: " + Quote(in.device_type()) + " is neither NPU nor CPU");
  }
  GE_ASSIGN_OR_RETURN(uint32_t real_dim_cnt, ToUint32(in.real_dim_cnt(), "real_dim_cnt"));
  out.SetRealDimCnt(real_dim_cnt);
  GE_ASSIGN_OR_RETURN(uint32_t reuse_index, ToUint32(in.reuse_input_index(), "reuse_input_index"));
  out.SetReuseInputIndex(reuse_index);
  out.SetDataOffset(in.data_offset());
  out.SetCmpsSize(in.cmps_size());
  out.SetCmpsTab(std::move(*in.mutable_cmps_tab()));
  out.SetCmpsTabOffset(in.cmps_tab_offset());

  GE_RETURN_IF_ERROR(LoadOrigin(reserved, out));
  return LoadAttrs(attrs, out.MutableAttrMap(), HolderKind::kTensorDesc, ctx);
}

Status SaveTensor(const GeTensor& tensor, proto::TensorDef& out, SaveContext& ctx) {
  GE_RETURN_IF_ERROR(SaveTensorDesc(tensor.GetTensorDesc(), *out.mutable_desc(), ctx));
  if (ctx.options.with_weight_data && tensor.GetSize() != 0) {
    out.set_data(tensor.GetStoredData().data(), tensor.GetSize());
  }
  return Status::Ok();
}

Result<GeTensor> LoadTensor(proto::TensorDef& in, LoadContext& ctx) {
  GeTensor tensor;
  Status status = LoadTensorDesc(*in.mutable_desc(), tensor.MutableTensorDesc(), ctx);
  if (!status.ok()) return std::move(status).Prefix("desc");
  if (!in.data().empty()) {
    // Keep the parsed bytes alive in the tensor instead of copying them once more.
    auto bytes = std::make_shared<std::string>(std::move(*in.mutable_data()));
    const auto* data = reinterpret_cast<const uint8_t*>(bytes->data());
    const size_t size = bytes->size();
    tensor.SetSharedData(std::shared_ptr<const uint8_t>(std::move(bytes), data), size);
  }
  return tensor;
}

}  // namespace ge::serialize
