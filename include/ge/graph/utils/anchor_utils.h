// AnchorUtils: anchor status and edge-kind questions.
#pragma once

#include "ge/graph/anchor.h"
#include "ge/graph/status.h"

namespace ge {

class AnchorUtils {
 public:
  AnchorUtils() = delete;

  static AnchorStatus GetStatus(const DataAnchorPtr& anchor) {
    return anchor == nullptr ? ANCHOR_RESERVED : anchor->GetStatus();
  }
  static Status SetStatus(const DataAnchorPtr& anchor, AnchorStatus status) {
    if (anchor == nullptr) return ParamInvalid("SetStatus: null anchor");
    if (status < ANCHOR_SUSPEND || status > ANCHOR_RESERVED) {
      return ParamInvalid("SetStatus on " + anchor->DebugString() + ": invalid status " +
                          std::to_string(static_cast<int>(status)));
    }
    anchor->SetStatus(status);
    return Status::Ok();
  }
  /// The anchor's index on its node: input or output index for data anchors, -1 for control
  /// anchors and for a null anchor.
  static int GetIdx(const AnchorPtr& anchor) { return anchor == nullptr ? -1 : anchor->GetIdx(); }
  /// Whether the anchor has any control peer (or is a control anchor with peers).
  static bool HasControlEdge(const AnchorPtr& anchor) {
    if (anchor == nullptr) return false;
    if (anchor->IsControlAnchor()) return anchor->GetPeerAnchorsSize() != 0;
    for (Anchor* peer : anchor->GetPeerAnchorsPtr()) {
      if (peer->IsControlAnchor()) return true;
    }
    return false;
  }
  /// An edge is a control edge when either end is a control anchor.
  static bool IsControlEdge(const AnchorPtr& src, const AnchorPtr& dst) {
    return src != nullptr && dst != nullptr && src->IsLinkedWith(dst) &&
           (src->IsControlAnchor() || dst->IsControlAnchor());
  }
};

}  // namespace ge
